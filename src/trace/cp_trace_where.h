/* cp_trace_where.h: the JSON side of "where the waste comes from" (cp_trace_where_out.c), for
 * cp_trace_json.c: the groups and ranks of a report, each kernel's call sites, each process's
 * host and rank variables. */
#ifndef CP_TRACE_WHERE_H
#define CP_TRACE_WHERE_H

#include "cp_trace_report.h"
#include "report/cp_report.h"

#include <cjson/cJSON.h>

/* "groups" ({"by", "items"}) and "ranks" under root. */
void cp_trace_where_json(cp_json *j, cJSON *root, const cp_trace_report *r);

/* "call_sites" of kernel k of process p under o. */
void cp_trace_where_json_kernel(cp_json *j, cJSON *o, const cp_trace_process *p,
                                const cp_trace_kernel *k);

/* "host", "rank" and "ranks" (the rank variables) of process p under o. */
void cp_trace_where_json_process(cp_json *j, cJSON *o, const cp_trace_process *p);

#endif
