/* cp_table.c: the string-keyed hash table (open addressing with linear probing, FNV-1a hash,
 * grown to twice its size when three quarters full). */
#define _GNU_SOURCE /* vasprintf */
#include "cp_table.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t cp_table_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

/* The slot holding key, or the empty slot where it belongs. */
static cp_table_entry *cp_table_slot(cp_table_entry *slots, size_t capacity, const char *key)
{
    size_t i = (size_t)cp_table_hash(key) & (capacity - 1);
    while (slots[i].key && strcmp(slots[i].key, key) != 0)
        i = (i + 1) & (capacity - 1);
    return &slots[i];
}

static int cp_table_grow(cp_table *t)
{
    size_t capacity = t->capacity ? t->capacity * 2 : 64;
    cp_table_entry *slots = calloc(capacity, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < t->capacity; i++)
        if (t->slots[i].key)
            *cp_table_slot(slots, capacity, t->slots[i].key) = t->slots[i];
    free(t->slots);
    t->slots = slots;
    t->capacity = capacity;
    return 0;
}

cp_table_entry *cp_table_get(cp_table *t, const char *key, int *created)
{
    if (created)
        *created = 0;
    if ((t->count + 1) * 4 > t->capacity * 3 && cp_table_grow(t) != 0)
        return NULL;
    cp_table_entry *e = cp_table_slot(t->slots, t->capacity, key);
    if (!e->key) {
        size_t n = strlen(key) + 1;
        e->key = malloc(n);
        if (!e->key)
            return NULL;
        memcpy(e->key, key, n);
        e->value = NULL;
        e->index = 0;
        t->count++;
        if (created)
            *created = 1;
    }
    return e;
}

cp_table_entry *cp_table_find(const cp_table *t, const char *key)
{
    if (!t->capacity)
        return NULL;
    cp_table_entry *e = cp_table_slot(t->slots, t->capacity, key);
    return e->key ? e : NULL;
}

void cp_table_free(cp_table *t, void (*free_value)(void *))
{
    for (size_t i = 0; i < t->capacity; i++) {
        if (!t->slots[i].key)
            continue;
        free(t->slots[i].key);
        if (free_value)
            free_value(t->slots[i].value);
    }
    free(t->slots);
    t->slots = NULL;
    t->capacity = t->count = 0;
}

char *cp_table_key(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    if ((size_t)n < size)
        return buf;
    char *key = NULL;
    va_start(ap, fmt);
    n = vasprintf(&key, fmt, ap);
    va_end(ap);
    return n < 0 ? NULL : key;
}
