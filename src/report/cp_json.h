/* cp_json.h: building a JSON document with cJSON: the first failed call is recorded and the
 * failure reported once at the end; numbers in one encoding for every report coalprobe writes. */
#ifndef CP_JSON_H
#define CP_JSON_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* A document being built. Adding to a NULL parent is harmless in cJSON, so building goes on
 * after a failure and the caller checks `failed` once. */
typedef struct cp_json {
    int failed;
    char why[96]; /* the first failure: a key added to a missing object, or memory (cp_json_why) */
    /* every key given lives as long as the document (a literal, a static table's name, a
     * string of the data the document is built from and deleted before): keys are referred to,
     * not copied (a malloc less for each of a page's 120,000 members) */
    int static_keys;
} cp_json;

/* An array of whole numbers and nulls, arrays of them inside it up to CP_JSON_INTS_DEPTH deep,
 * written as text and added whole as one raw value, the way cJSON prints an array in formatted
 * output ("[1, 2, [3, null]]"), so the report's text is the same as with one item a number: for
 * parts only ever read as text (written out, then parsed by whoever reads the file; never looked
 * up in the tree, where it is no array), such as the lane maps, where one item a number cost the
 * page of a 1,024-row sweep 250,000 items. Start from {0}; open, add, close; cp_json_ints_add adds
 * it to an object and frees the text. */
#define CP_JSON_INTS_DEPTH 4
typedef struct cp_json_ints {
    char *text;
    size_t len, cap;
    int depth;
    int first[CP_JSON_INTS_DEPTH]; /* whether the array open at each depth has no element yet */
    int failed;                    /* memory ran out, or open/close did not match */
} cp_json_ints;

void cp_json_ints_open(cp_json_ints *a);
void cp_json_ints_u64(cp_json_ints *a, uint64_t v);
void cp_json_ints_null(cp_json_ints *a);
void cp_json_ints_close(cp_json_ints *a);
void cp_json_ints_add(cp_json *j, cJSON *o, const char *key, cp_json_ints *a);

/* Readies a finished document for printing, in place: each number becomes raw text, the very
 * text cJSON_Print would write for it (whole numbers under 1e15 as their digits, others as
 * "%1.15g" where that reads back as the same double, else "%1.17g"), without cJSON's formatting
 * and re-reading (sscanf) of every number, and without a malloc for each: the texts are kept
 * in blocks the caller frees with cp_json_free_texts, before or after cJSON_Delete(root) (which
 * does not read them), never before printing. Afterwards the
 * tree's numbers are no longer numbers to cJSON: it may only be printed and deleted. Where
 * memory runs out, the numbers left stay numbers (they print the same). */
typedef struct cp_json_texts cp_json_texts;
cp_json_texts *cp_json_freeze(cJSON *root);
void cp_json_free_texts(cp_json_texts *t);

/* cp_json_finish with the numbers frozen first (cp_json_freeze): the same text, sooner. */
char *cp_json_finish_frozen(const cp_json *j, cJSON *root);

/* root printed compact, the very text of cJSON_PrintUnformatted, handed to put in parts in
 * order: where root's last member is an array of many elements (a report's rows), those are
 * printed over the CPUs. root is as it was afterwards. 0 when memory ran out: then put may have
 * had a first part, and no more. */
typedef void cp_json_put_fn(void *arg, const char *text, size_t len);
int cp_json_print_parts(cJSON *root, cp_json_put_fn *put, void *arg);

/* v's decimal digits, written at the end of buf (at least 21 bytes), NUL-ended: their start. */
const char *cp_json_digits(char *buf, size_t size, uint64_t v);

/* What went wrong first while building j's document, for the error message: "out of memory", or
 * the key that was added to an object that does not exist (a bug). */
const char *cp_json_why(const cp_json *j);

/* item, recording a failure when it is NULL. */
cJSON *cp_json_check(cp_json *j, cJSON *item);

void cp_json_null(cp_json *j, cJSON *o, const char *key);

/* true when v != 0. */
void cp_json_bool(cp_json *j, cJSON *o, const char *key, int v);

/* The number encoding: null when NAN or infinite; a whole number as its digits (cJSON alone
 * writes those from 1e15 up in exponent form), up to 1e19; -0 as 0; anything else as cJSON
 * writes it. */
void cp_json_number(cp_json *j, cJSON *o, const char *key, double v);

/* An integer as its exact digits, however large. */
void cp_json_u64(cp_json *j, cJSON *o, const char *key, uint64_t v);

/* A string; null when s is NULL. */
void cp_json_string(cp_json *j, cJSON *o, const char *key, const char *s);

/* A new object or array under key; NULL (recorded) when memory runs out. */
cJSON *cp_json_object(cp_json *j, cJSON *o, const char *key);
cJSON *cp_json_array(cp_json *j, cJSON *o, const char *key);

/* A new object under key when present; otherwise null under key, and NULL. NULL (recorded) too
 * when memory runs out: either way the caller adds nothing more under it. */
cJSON *cp_json_object_if(cp_json *j, cJSON *o, const char *key, int present);

/* A member of a struct of doubles: its key in the document and its offset in the struct. */
typedef struct cp_json_field {
    const char *key;
    size_t offset;
} cp_json_field;

/* A cp_json_field of type's member `name`, under the same name. */
#define CP_JSON_FIELD(type, name)                                                                  \
    {                                                                                              \
#name, offsetof(type, name)                                                                \
    }

/* The double at each field's offset in s, added to o under the field's key (cp_json_number). */
void cp_json_doubles(cp_json *j, cJSON *o, const void *s, const cp_json_field *fields, size_t n);

/* A new object appended to array. */
cJSON *cp_json_append(cp_json *j, cJSON *array);

/* An integer appended to array as its exact digits (as cp_json_u64), or null. */
void cp_json_append_u64(cp_json *j, cJSON *array, uint64_t v);
void cp_json_append_null(cp_json *j, cJSON *array);
/* A string appended to array; null when s is NULL. */
void cp_json_append_string(cp_json *j, cJSON *array, const char *s);

/* root printed (pretty, as cJSON_Print), or NULL when building or printing failed; root is
 * deleted either way. The caller frees the text with cJSON_free. */
char *cp_json_finish(const cp_json *j, cJSON *root);

#endif
