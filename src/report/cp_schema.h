/* cp_schema.h: the JSON Schemas of docs/schema/, built into the binary, and a validator for the
 * part of JSON Schema (draft 2020-12) that they use, so that compare checks its inputs itself. */
#ifndef CP_SCHEMA_H
#define CP_SCHEMA_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "base/cp_base.h"

/* The schemas built in. */
typedef enum {
    CP_SCHEMA_REPORT, /* docs/schema/coalprobe-report.schema.json: a sweep report */
    CP_SCHEMA_TRACE,  /* docs/schema/coalprobe-trace.schema.json: a trace report */
} cp_schema_kind;

/* The first place where a document fails its schema (the deepest one when several forms were
 * tried). Strings are malloc'd; control characters in them are escaped (cp_text_printable). */
typedef struct cp_schema_error {
    char *where;       /* the key's path: "rows[3].predicted.load.sectors"; "" for the whole */
    char *message;     /* what was expected and what was found */
    const char *array; /* the document's top-level key when the path goes through one of its
                          array's elements ("rows"), else NULL */
    size_t index;      /* that element's index */
    const char *rest;  /* where, past "array[index]" (points into where; "" for the element) */
} cp_schema_error;

/* The schema's file name, for messages: "coalprobe-report.schema.json". */
const char *cp_schema_name(cp_schema_kind kind);

/* The schema's text as built in (exactly the file's content). */
const char *cp_schema_text(cp_schema_kind kind);

/* Checks doc against the schema. CP_EXIT_OK when it follows it; CP_EXIT_USAGE when it does not,
 * with *err filled in (free it with cp_schema_error_free); CP_EXIT_RUNTIME, with st, when the
 * check itself cannot be done (out of memory, a keyword this validator does not know). */
int cp_schema_validate(cp_schema_kind kind, const cJSON *doc, cp_schema_error *err, cp_status *st);

void cp_schema_error_free(cp_schema_error *err);

/* Sets st to the usage error of a document at path that fails its schema: the file, the place
 * (row_label, when not NULL, names the element err->array[err->index], e.g. its pattern and
 * config), the key, what was expected and what was found; and a hint. Returns CP_EXIT_USAGE. */
int cp_schema_status(cp_status *st, const char *path, cp_schema_kind kind,
                     const cp_schema_error *err, const char *row_label);

#endif
