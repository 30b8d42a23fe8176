/* test_progress.c: the progress line: its counts, the estimate of the time left, and that it
 * never passes 79 columns; the notice before a long model run. */
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

    /* the notice before a long model run: from 3 s on, in s, min or h */
    char notice[256];
    cp_model_cost cost = {1, 4294967296ull, 4294967296ull, 16, 150.0};
    CHECK(cp_progress_model_notice(notice, sizeof notice, &cost) == 1);
    CHECK(strcmp(notice, "the model evaluates 4294967296 GPU threads one by one (1 configuration): "
                         "about 2 min on 16 CPU threads") == 0);
    cost = (cp_model_cost){64, 1073741824ull, 16777216ull, 1, 48.4};
    CHECK(cp_progress_model_notice(notice, sizeof notice, &cost) == 1);
    CHECK_STR_CONTAINS(notice, "(64 configurations): about 48 s on 1 CPU thread");
    cost.seconds = 3 * 3600;
    CHECK(cp_progress_model_notice(notice, sizeof notice, &cost) == 1);
    CHECK_STR_CONTAINS(notice, "about 3.0 h");
    cost.seconds = 2.9;
    CHECK(cp_progress_model_notice(notice, sizeof notice, &cost) == 0 && notice[0] == '\0');
    cost.seconds = 0;
    CHECK(cp_progress_model_notice(notice, sizeof notice, &cost) == 0);
    return cp_test_finish();
}
