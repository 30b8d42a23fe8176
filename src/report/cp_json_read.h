/* cp_json_read.h: a JSON document read from a file or standard input the one strict way every
 * reader of reports shares (show, compare, the report loader): one document and nothing after it,
 * no key twice in an object, no number beyond a double's range, nesting and size bounded while
 * reading; each number's own text kept where a whole number must be compared exactly. */
#ifndef CP_JSON_READ_H
#define CP_JSON_READ_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "base/cp_base.h"

/* The most bytes of a JSON report read (256 MiB; COALPROBE_MAX_INPUT_BYTES sets another): the
 * largest real report (a trace of 100,000 instructions) is a fraction of it. */
#define CP_JSON_READ_LIMIT ((size_t)256 << 20)

/* What cp_json_read found. */
typedef struct cp_json_read_result {
    char *text;   /* the file's text, NUL-terminated (malloc'd; the caller frees it) */
    size_t len;   /* its length */
    cJSON *root;  /* the document (the caller deletes it); NULL when the text is not JSON */
    size_t error; /* where the text stopped being JSON (a byte offset), root NULL */
} cp_json_read_result;

/* Reads the document at path ("-": standard input) into r. CP_EXIT_OK with r->root NULL and
 * r->error set when the text is no JSON at all (the caller names what it is instead);
 * CP_EXIT_RUNTIME when it cannot be read (larger than the limit, an I/O error);
 * CP_EXIT_USAGE, naming path, for what is refused: not a regular file (a FIFO: give -), text
 * after the document, a key twice in one object (naming the key and the object), a number that
 * is not finite (1e400), nesting deeper than cJSON's limit (refused as soon as it is read, so an
 * endless `{{{...` ends at once). With keep_numbers, each number item's valuestring holds its
 * text as written (cJSON_Delete frees it), for cp_json_read_same_number. */
int cp_json_read(const char *path, int keep_numbers, cp_json_read_result *r, cp_status *st);

/* Frees what r holds. */
void cp_json_read_free(cp_json_read_result *r);

/* Whether two JSON number texts are the same number, decided on their digits (no rounding to a
 * double, so 9007199254740992 and 9007199254740993 differ): 1 equal, 0 different, -1 when
 * either is not a JSON number. */
int cp_json_read_same_number(const char *a, const char *b);

#endif
