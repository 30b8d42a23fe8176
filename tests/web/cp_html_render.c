/* cp_html_render.c: writes the page (cp_html_write) of a saved JSON report, trace report or
 * comparison, for the page's browser tests, docs/results' screenshots and bench/page_cost.sh:
 * cp_html_render [--no-source] [--repeat N] REPORT.json OUT.html. --repeat writes the page N
 * times (to OUT.html each time) and prints the median time of one on stdout. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/cp_report.h"
#include "trace/cp_trace.h" /* a trace page's columns */

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (*len + 65536 > cap) {
            char *more = realloc(buf, cap = 2 * cap + 65536);
            if (!more) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = more;
        }
        size_t got = fread(buf + *len, 1, cap - *len, f);
        *len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    return buf;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    cp_html_options o = {0};
    int i = 1, repeat = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--no-source") == 0)
            o.no_source = 1;
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
    }
    if (argc - i != 2) {
        fprintf(stderr, "usage: cp_html_render [--no-source] [--repeat N] REPORT.json OUT.html\n");
        return 2;
    }
    size_t len;
    char *json = read_all(argv[i], &len);
    if (!json) {
        perror(argv[i]);
        return 1;
    }
    cJSON *columns = cp_trace_columns_describe();
    o.columns = columns;
    int n = repeat > 0 ? repeat : 1, rc = 0;
    double *t = calloc((size_t)n, sizeof *t);
    for (int k = 0; k < n && rc == 0 && t; k++) {
        cp_status st;
        cp_status_clear(&st);
        double t0 = now();
        FILE *out = fopen(argv[i + 1], "wb");
        rc = out ? cp_html_write_text(out, json, len, &o, &st) : 1;
        if (out && fclose(out) != 0)
            rc = 1;
        t[k] = now() - t0;
        if (rc)
            fprintf(stderr, "cp_html_render: %s\n", st.message[0] ? st.message : "cannot write");
    }
    if (repeat > 0 && rc == 0 && t) {
        qsort(t, (size_t)n, sizeof *t, cmp_double);
        printf("%.3f ms median of %d (min %.3f, max %.3f)\n", 1e3 * t[n / 2], n, 1e3 * t[0],
               1e3 * t[n - 1]);
    }
    free(t);
    free(json);
    cJSON_Delete(columns);
    return rc;
}
