/* test_progress.c: the progress line: its counts, the estimate of the time left, and that it
 * never passes 79 columns. */
#include "app/cp_progress.h"
#include "cp_test.h"

int main(void)
{
    char buf[128];
    cp_progress_format(buf, sizeof buf, 10, 40, "measuring", "stride=11 offset=0 width=4 op=load",
                       5.0);
    /* 10 done in 5 s: 30 left take about 15 s */
    CHECK(strcmp(buf, "[11/40] measuring stride=11 offset=0 width=4 op=load, about 15 s left") ==
          0);
    cp_progress_format(buf, sizeof buf, 1, 1000, "predicting", "x", 2.0);
    CHECK_STR_CONTAINS(buf, "about 33 min left"); /* 999 * 2 s */
    cp_progress_format(buf, sizeof buf, 0, 5, "measuring", "first", 0.7);
    CHECK(strcmp(buf, "[1/5] measuring first") == 0); /* no estimate before one is done */
    char what[200];
    memset(what, 'w', sizeof what - 1);
    what[sizeof what - 1] = '\0';
    cp_progress_format(buf, sizeof buf, 3, 9, "measuring", what, 1.0);
    CHECK(strlen(buf) <= 79);
    CHECK_STR_CONTAINS(buf, ", about 2 s left"); /* the description is cut, not the estimate */
    cp_progress_format(buf, 20, 3, 9, "measuring", what, 1.0);
    CHECK(strlen(buf) < 20);
    return cp_test_finish();
}
