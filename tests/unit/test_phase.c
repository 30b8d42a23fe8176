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

/* The start-up apart: the phases that ended before the first configuration, with their own
 * "other", under the whole run's lines; the work beside them on a line of its own. */
static void test_start_up(void)
{
    cp_phase_start();
    cp_phase_begin(CP_PHASE_CONTEXT);
    cp_test_sleep(0.02);
    cp_phase_end();
    cp_phase_begin(CP_PHASE_KERNEL_IMAGE);
    cp_test_sleep(0.01);
    cp_phase_end();
    cp_phase_start_up_done();
    cp_phase_begin(CP_PHASE_CONTEXT); /* after the start-up: in the run's line only */
    cp_test_sleep(0.01);
    cp_phase_end();
    cp_phase_begin(CP_PHASE_TIMING);
    cp_test_sleep(0.01);
    cp_phase_end();
    cp_phase_start_up_done(); /* once: a later call changes nothing */
    cp_phase_beside(CP_PHASE_CUPTI_OPEN, 0.25);
    cp_phase_beside(CP_PHASE_CUPTI_OPEN, 0.5);
    char *text = cp_test_phase_text();
    CHECK(text != NULL);
    if (!text)
        return;
    const char *start_up = strstr(text, "s of it before the first configuration (the start-up):\n");
    const char *beside = strstr(text, "coalprobe: beside them, on threads of their own");
    CHECK(start_up && beside && start_up < beside);
    double all = 0, before = 0, context = 0, image = 0;
    CHECK(sscanf(text, "coalprobe: %lf s in all", &all) == 1);
    const char *line = start_up; /* back to the start of its line */
    while (line && line > text && line[-1] != '\n')
        line--;
    CHECK(line && sscanf(line, "coalprobe: %lf s of it before", &before) == 1);
    CHECK(before >= 0.03 && before < all);
    const char *c = start_up ? strstr(start_up, "\n  CUDA context ") : NULL;
    const char *k = start_up ? strstr(start_up, "\n  kernel loading ") : NULL;
    CHECK(c && sscanf(c, "\n  CUDA context %lf s", &context) == 1 && context >= 0.02);
    /* the context's second time (at least 0.01 s) came after: the run's line holds both, the
     * start-up's the first alone (printed to the millisecond; no bound on how long a sleep took,
     * so a loaded machine cannot fail it) */
    double run_context = 0;
    const char *rc = strstr(text, "\n  CUDA context ");
    CHECK(rc && rc < start_up && sscanf(rc, "\n  CUDA context %lf s", &run_context) == 1);
    CHECK(context <= run_context - 0.01 + 0.0015);
    CHECK(k && sscanf(k, "\n  kernel loading %lf s", &image) == 1 && image >= 0.01);
    CHECK(start_up && !strstr(start_up, "\n  timing ") && strstr(text, "\n  timing "));
    CHECK_STR_CONTAINS(beside, "\n  CUPTI session           0.750 s\n");
    free(text);
    /* without the mark or work beside: the run's lines alone */
    cp_phase_start();
    text = cp_test_phase_text();
    CHECK(text && !strstr(text, "start-up") && !strstr(text, "beside"));
    free(text);
}

/* "other" is told by the phases it lies between, the largest first, the tail up to the print
 * included; gaps under a millisecond are not listed. */
static void test_gaps(void)
{
    cp_phase_start();
    cp_phase_begin(CP_PHASE_VERIFY);
    cp_phase_end();
    cp_test_sleep(0.03); /* between verification and timing, twice */
    cp_phase_begin(CP_PHASE_TIMING);
    cp_phase_end();
    cp_phase_begin(CP_PHASE_VERIFY);
    cp_phase_end();
    cp_test_sleep(0.03);
    cp_phase_begin(CP_PHASE_TIMING);
    cp_phase_end();
    cp_test_sleep(0.02); /* between timing and the end */
    char *text = cp_test_phase_text();
    CHECK(text != NULL);
    const char *a = text ? strstr(text, "    between verification and timing: ") : NULL;
    const char *b = text ? strstr(text, "    between timing and the end: ") : NULL;
    double ga = 0, gb = 0;
    unsigned long na = 0;
    CHECK(a && sscanf(a, "    between verification and timing: %lf s (%lu times)", &ga, &na) == 2);
    CHECK(ga >= 0.06 && na == 2);
    CHECK(b && sscanf(b, "    between timing and the end: %lf s (1 time)", &gb) == 1 && gb >= 0.02);
    CHECK(a && b && a < b);                                          /* the largest first */
    CHECK(text && !strstr(text, "between timing and verification")); /* under a millisecond */
    free(text);
}

int main(void)
{
    test_gaps();
    test_start_up();
    test_nesting();
    test_print_adds_up();
    test_pass_parts();
    return cp_test_finish();
}
