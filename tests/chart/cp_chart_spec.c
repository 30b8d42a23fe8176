/* cp_chart_spec.c: writes the chart of a saved JSON report (a sweep or a trace report) on standard
 * output, as coalprobe --format vega-lite draws it (cp_report_write_vegalite_doc), for the chart
 * tests (tests/chart/chart_test.sh): the measured reports of docs/results/ cannot be measured
 * again here. Exit 0, 1 when the file cannot be read, 2 when it is not a report. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/cp_report.h"

/* The whole file at path, NUL-terminated; NULL when it cannot be read. */
static char *cp_chart_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t len = 0, cap = 1 << 16;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            char *bigger = realloc(text, cap * 2);
            if (!bigger)
                free(text);
            text = bigger;
            cap *= 2;
        }
    }
    if (text && ferror(f)) {
        free(text);
        text = NULL;
    }
    fclose(f);
    if (text)
        text[len] = '\0';
    return text;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cp_chart_spec REPORT.json\n");
        return 2;
    }
    char *text = cp_chart_read(argv[1]);
    if (!text) {
        perror(argv[1]);
        return 1;
    }
    cJSON *doc = cJSON_Parse(text);
    free(text);
    if (!doc) {
        fprintf(stderr, "cp_chart_spec: %s is not JSON\n", argv[1]);
        return 2;
    }
    cp_status st = {0};
    int rc = cp_report_write_vegalite_doc(stdout, doc, &st);
    cJSON_Delete(doc);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "cp_chart_spec: %s: %s\n", argv[1], st.message);
    return rc;
}
