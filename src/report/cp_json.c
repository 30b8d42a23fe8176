/* cp_json.c: building a JSON document with cJSON, its failure reported once, and the one
 * number encoding of coalprobe's JSON. */
#include "cp_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* cJSON_Print writes whole numbers from 1e15 up in exponent form ("%1.15g"): those are added as
 * raw digits, up to where a double's digits stop meaning anything. */
#define CP_JSON_RAW_FROM 1e15
#define CP_JSON_RAW_TO 1e19

cJSON *cp_json_check(cp_json *j, cJSON *item)
{
    if (!item)
        j->failed = 1;
    return item;
}

const char *cp_json_why(const cp_json *j)
{
    return j->why[0] ? j->why : "out of memory (or its text would pass cJSON's 2 GiB)";
}

/* Records the first key that had no object (or no name) to go into. Returns 1 when o and key are
 * there. */
static int cp_json_parent(cp_json *j, const cJSON *o, const char *key)
{
    if (o && key)
        return 1;
    if (!j->failed)
        snprintf(j->why, sizeof j->why, "'%s' added to a missing object", key ? key : "(no name)");
    j->failed = 1;
    return 0;
}

void cp_json_null(cp_json *j, cJSON *o, const char *key)
{
    if (cp_json_parent(j, o, key))
        cp_json_check(j, cJSON_AddNullToObject(o, key));
}

void cp_json_bool(cp_json *j, cJSON *o, const char *key, int v)
{
    if (cp_json_parent(j, o, key))
        cp_json_check(j, cJSON_AddBoolToObject(o, key, v != 0));
}

void cp_json_number(cp_json *j, cJSON *o, const char *key, double v)
{
    if (!cp_json_parent(j, o, key))
        return;
    if (!isfinite(v)) {
        cp_json_null(j, o, key);
    } else if (v == floor(v) && fabs(v) >= CP_JSON_RAW_FROM && fabs(v) < CP_JSON_RAW_TO) {
        char digits[32];
        snprintf(digits, sizeof digits, "%.0f", v);
        cp_json_check(j, cJSON_AddRawToObject(o, key, digits));
    } else { /* -0 as 0: cJSON would write "-0" */
        cp_json_check(j, cJSON_AddNumberToObject(o, key, v == 0 ? 0.0 : v));
    }
}

void cp_json_u64(cp_json *j, cJSON *o, const char *key, uint64_t v)
{
    if (!cp_json_parent(j, o, key))
        return;
    if ((double)v < CP_JSON_RAW_FROM) {
        cp_json_check(j, cJSON_AddNumberToObject(o, key, (double)v));
        return;
    }
    char digits[32];
    snprintf(digits, sizeof digits, "%" PRIu64, v);
    cp_json_check(j, cJSON_AddRawToObject(o, key, digits));
}

void cp_json_string(cp_json *j, cJSON *o, const char *key, const char *s)
{
    if (s && cp_json_parent(j, o, key))
        cp_json_check(j, cJSON_AddStringToObject(o, key, s));
    else if (s == NULL)
        cp_json_null(j, o, key);
}

cJSON *cp_json_object(cp_json *j, cJSON *o, const char *key)
{
    return cp_json_parent(j, o, key) ? cp_json_check(j, cJSON_AddObjectToObject(o, key)) : NULL;
}

cJSON *cp_json_array(cp_json *j, cJSON *o, const char *key)
{
    return cp_json_parent(j, o, key) ? cp_json_check(j, cJSON_AddArrayToObject(o, key)) : NULL;
}

cJSON *cp_json_object_if(cp_json *j, cJSON *o, const char *key, int present)
{
    if (present)
        return cp_json_object(j, o, key);
    cp_json_null(j, o, key);
    return NULL;
}

void cp_json_doubles(cp_json *j, cJSON *o, const void *s, const cp_json_field *fields, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, (const char *)s + fields[i].offset, sizeof v);
        cp_json_number(j, o, fields[i].key, v);
    }
}

cJSON *cp_json_append(cp_json *j, cJSON *array)
{
    if (!cp_json_parent(j, array, "[]"))
        return NULL;
    cJSON *item = cJSON_CreateObject();
    if (item && !cJSON_AddItemToArray(array, item)) {
        cJSON_Delete(item);
        item = NULL;
    }
    return cp_json_check(j, item);
}

/* item appended to array; item deleted (and the failure recorded) when that fails. */
static void cp_json_append_item(cp_json *j, cJSON *array, cJSON *item)
{
    if (!item || !cp_json_parent(j, array, "[]") || !cJSON_AddItemToArray(array, item)) {
        cJSON_Delete(item);
        j->failed = 1;
    }
}

void cp_json_append_u64(cp_json *j, cJSON *array, uint64_t v)
{
    if ((double)v < CP_JSON_RAW_FROM) {
        cp_json_append_item(j, array, cJSON_CreateNumber((double)v));
        return;
    }
    char digits[32];
    snprintf(digits, sizeof digits, "%" PRIu64, v);
    cp_json_append_item(j, array, cJSON_CreateRaw(digits));
}

/* v's decimal digits into buf (at least 21 bytes), NUL-ended. */
static const char *cp_json_digits(char *buf, size_t size, uint64_t v)
{
    char *p = buf + size - 1;
    *p = '\0';
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p;
}

void cp_json_text_u64(cp_json *j, cJSON *o, const char *key, uint64_t v)
{
    char buf[24];
    if (cp_json_parent(j, o, key))
        cp_json_check(j, cJSON_AddRawToObject(o, key, cp_json_digits(buf, sizeof buf, v)));
}

void cp_json_append_text_u64(cp_json *j, cJSON *array, uint64_t v)
{
    char buf[24];
    cp_json_append_item(j, array, cJSON_CreateRaw(cp_json_digits(buf, sizeof buf, v)));
}

void cp_json_append_null(cp_json *j, cJSON *array)
{
    cp_json_append_item(j, array, cJSON_CreateNull());
}

char *cp_json_finish(const cp_json *j, cJSON *root)
{
    char *text = j->failed || !root ? NULL : cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}
