/* test_progress.c: the progress line: its counts, the estimate of the time left, and that it
 * never passes 79 columns; the plain lines elsewhere than a terminal, on a clock the test moves
 * (no sleeping); the notice before a long model run. */
#include "app/cp_progress.h"
#include "cp_test.h"
#include "cp_stride_config.h" /* after the layers */

/* The clock of the plain lines: seconds the test sets. */
static double fake_seconds;
static double fake_now(void)
{
    return fake_seconds;
}

/* What the progress wrote to its stream so far. */
static const char *written(FILE *f, char *buf, size_t len)
{
    fflush(f);
    long at = ftell(f);
    rewind(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fseek(f, at, SEEK_SET);
    return buf;
}

/* Elsewhere than a terminal: a plain line once the interval has passed since the last one,
 * none before, the configuration in hand and the time left; nothing at all when quiet. */
static void test_plain_lines(void)
{
    char line[128];
    cp_progress_format_plain(line, sizeof line, 411, 1024, "predicting", 190.0 * 411 / 613);
    CHECK(strcmp(line, "coalprobe: predicting configuration 412/1024, 3 m 10 s left") == 0);
    cp_progress_format_plain(line, sizeof line, 0, 8, "measuring", 12.0);
    CHECK(strcmp(line, "coalprobe: measuring configuration 1/8") == 0); /* nothing done yet */
    cp_progress_format_plain(line, sizeof line, 1, 1001, "predicting", 9.0);
    CHECK_STR_CONTAINS(line, ", 2 h 30 m left");

    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    cp_config c = {.family = CP_FAMILY_STRIDE};
    cp_stride_config_of(&c)->stride = 1, cp_stride_config_of(&c)->width_bytes = 4;
    char buf[1024];
    fake_seconds = 100;
    cp_progress p;
    cp_progress_start_on(&p, "predicting", f, 0, 10.0, fake_now);
    cp_progress_update(&p, 0, 100, &c);
    fake_seconds = 109.9;
    cp_progress_update(&p, 9, 100, &c);
    CHECK(strcmp(written(f, buf, sizeof buf), "") == 0); /* not 10 s yet */
    fake_seconds = 110;
    cp_progress_update(&p, 10, 100, &c); /* 10 done in 10 s: 90 left, 90 s */
    CHECK(strcmp(written(f, buf, sizeof buf),
                 "coalprobe: predicting configuration 11/100, 1 m 30 s left\n") == 0);
    fake_seconds = 115;
    cp_progress_update(&p, 15, 100, &c); /* 5 s since the last line: none */
    fake_seconds = 120;
    cp_progress_update(&p, 50, 100, &c);
    CHECK(strcmp(written(f, buf, sizeof buf),
                 "coalprobe: predicting configuration 11/100, 1 m 30 s left\n"
                 "coalprobe: predicting configuration 51/100, 20 s left\n") == 0);
    cp_progress_clear(&p); /* nothing to erase: no escape written */
    CHECK(strchr(written(f, buf, sizeof buf), '\033') == NULL);
    fclose(f);

    /* quiet: nothing, terminal or not */
    fake_seconds = 0;
    cp_progress_start(&p, "predicting", 1);
    CHECK(!p.enabled && !p.plain);
    /* interval 0 (COALPROBE_PROGRESS_INTERVAL=0): a line at every update */
    f = tmpfile();
    if (!f)
        return;
    cp_progress_start_on(&p, "measuring", f, 0, 0.0, fake_now);
    cp_progress_update(&p, 0, 2, &c);
    cp_progress_update(&p, 1, 2, &c);
    CHECK(strcmp(written(f, buf, sizeof buf),
                 "coalprobe: measuring configuration 1/2\n"
                 "coalprobe: measuring configuration 2/2, less than 1 s left\n") == 0);
    fclose(f);
}

int main(void)
{
    test_plain_lines();
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
