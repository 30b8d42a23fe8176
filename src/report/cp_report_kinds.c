/* cp_report_kinds.c: the kinds of JSON document that name themselves by their "kind" key, once:
 * what show makes of each, its page and its chart (cp_report_kinds.h). */
#include "cp_report_kinds.h"
#include "cp_html_page.h"
#include "cp_report.h"

#include <string.h>

static const cp_report_kind_desc cp_report_kinds[] = {
    {"trace", CP_REPORT_KIND_TRACE, CP_HTML_TRACE, cp_report_write_vegalite_trace},
    /* its page and chart are a comparison's, told by its keys */
    {"trace_compare", CP_REPORT_KIND_TRACE_COMPARE, -1, NULL},
};

const cp_report_kind_desc *cp_report_kind_of(const cJSON *doc)
{
    const cJSON *kind = cJSON_IsObject(doc) ? cJSON_GetObjectItemCaseSensitive(doc, "kind") : NULL;
    for (size_t i = 0; cJSON_IsString(kind) && i < CP_COUNT_OF(cp_report_kinds); i++)
        if (strcmp(kind->valuestring, cp_report_kinds[i].name) == 0)
            return &cp_report_kinds[i];
    return NULL;
}
