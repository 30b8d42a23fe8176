/* cp_report_kinds.h: the kinds of JSON document that name themselves by their "kind" key (a trace
 * report, a comparison of two), each registered once with what the report layer does with it
 * (private to src/report/; cp_report_kinds.c). Documents without the key (a sweep's report, a
 * comparison of two) are told apart by their keys. */
#ifndef CP_REPORT_KINDS_H
#define CP_REPORT_KINDS_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "base/cp_base.h"
#include "cp_show.h"

typedef struct cp_report_kind_desc {
    const char *name;    /* its "kind" */
    cp_report_kind show; /* what coalprobe show makes of it */
    int page;            /* its page (cp_html_kind of cp_html_page.h); -1: told by its keys */
    /* its chart from the document (--format vega-lite); NULL: told by its keys */
    int (*chart)(FILE *out, const cJSON *doc, cp_status *st);
} cp_report_kind_desc;

/* The entry of the "kind" doc names; NULL when it names none, or none of these. */
const cp_report_kind_desc *cp_report_kind_of(const cJSON *doc);

#endif
