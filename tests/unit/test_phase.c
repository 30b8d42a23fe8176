/* test_phase.c: the --verbose time breakdown (src/base/cp_phase.c): nested phases count their
 * own time only, unmatched ends are harmless, the printed lines add up to the total. */
#define _POSIX_C_SOURCE 200809L
#include "cp_test.h"
#include "base/cp_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void cp_test_sleep(double seconds)
{
    struct timespec t = {0, (long)(seconds * 1e9)};
    nanosleep(&t, NULL);
}

/* What cp_phase_print writes, as a string to free; NULL when no memory stream opens. */
static char *cp_test_phase_text(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    cp_phase_print(f);
    fclose(f);
    return text;
}

static void test_nesting(void)
{
    cp_phase_start();
    cp_phase_begin(CP_PHASE_PASSES);
    cp_test_sleep(0.02);
    cp_phase_begin(CP_PHASE_BUFFERS); /* inside the passes: not counted twice */
    cp_test_sleep(0.05);
    cp_phase_end();
    cp_phase_end();
    double passes = cp_phase_seconds(CP_PHASE_PASSES), buffers = cp_phase_seconds(CP_PHASE_BUFFERS);
    CHECK(buffers >= 0.05 && buffers < 0.5);
    CHECK(passes >= 0.02 && passes < 0.045); /* 0.07 s in all less the 0.05 s inside */
    CHECK(cp_phase_count(CP_PHASE_PASSES) == 1 && cp_phase_count(CP_PHASE_BUFFERS) == 1);
    CHECK(cp_phase_count(CP_PHASE_TIMING) == 0 && cp_phase_seconds(CP_PHASE_TIMING) == 0);
    /* the same phase again adds up */
    cp_phase_begin(CP_PHASE_BUFFERS);
    cp_test_sleep(0.01);
    cp_phase_end();
    CHECK(cp_phase_count(CP_PHASE_BUFFERS) == 2 && cp_phase_seconds(CP_PHASE_BUFFERS) >= 0.06);
    /* an end without a begin changes nothing; a phase out of range is ignored yet matched */
    cp_phase_end();
    CHECK(cp_phase_count(CP_PHASE_BUFFERS) == 2);
    cp_phase_begin((cp_phase)99);
    cp_phase_begin(CP_PHASE_DECODE);
    cp_phase_end();
    cp_phase_end();
    CHECK(cp_phase_count(CP_PHASE_DECODE) == 1);
    /* cp_phase_start clears */
    cp_phase_start();
    CHECK(cp_phase_count(CP_PHASE_BUFFERS) == 0 && cp_phase_seconds(CP_PHASE_PASSES) == 0);
}

/* The printed seconds of the phases and "other" add up to the printed total (to rounding). */
static void test_print_adds_up(void)
{
    cp_phase_start();
    cp_phase_begin(CP_PHASE_MODEL);
    cp_test_sleep(0.01);
    cp_phase_end();
    cp_test_sleep(0.01);
    char *text = cp_test_phase_text();
    CHECK(text != NULL);
    if (!text)
        return;
    double total = -1, sum = 0;
    int lines = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        double v;
        char name[64];
        if (sscanf(line, "coalprobe: %lf s in all", &v) == 1)
            total = v;
        else if (sscanf(line, " %63[a-zA-Z/ -] %lf s", name, &v) == 2) {
            sum += v;
            lines++;
        }
    }
    CHECK(lines == 2); /* model and other */
    CHECK(total >= 0.02);
    CHECK(sum > total - 0.0025 && sum < total + 0.0025);
    free(text);
}

/* The CUPTI calls inside the counter passes print as indented lines of their own, after the
 * passes' own line, and the passes' own time leaves them out. */
static void test_pass_parts(void)
{
    cp_phase_start();
    cp_phase_begin(CP_PHASE_PASSES);
    cp_phase_begin(CP_PHASE_PASS_EDGES);
    cp_test_sleep(0.03);
    cp_phase_end();
    cp_phase_begin(CP_PHASE_RANGE_EDGES);
    cp_test_sleep(0.01);
    cp_phase_end();
    cp_phase_end();
    CHECK(cp_phase_seconds(CP_PHASE_PASS_EDGES) >= 0.03);
    CHECK(cp_phase_seconds(CP_PHASE_RANGE_EDGES) >= 0.01);
    CHECK(cp_phase_seconds(CP_PHASE_PASSES) < 0.01);
    char *text = cp_test_phase_text();
    CHECK(text != NULL);
    if (!text)
        return;
    const char *passes = strstr(text, "\n  counter passes ");
    const char *edges = strstr(text, "\n    CUPTI start/stop ");
    const char *ranges = strstr(text, "\n    CUPTI push/pop ");
    CHECK(passes && edges && ranges);
    CHECK(passes < edges && edges < ranges);
    free(text);
}

int main(void)
{
    test_nesting();
    test_print_adds_up();
    test_pass_parts();
    return cp_test_finish();
}
