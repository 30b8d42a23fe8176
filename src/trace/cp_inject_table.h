/* cp_inject_table.h: a small string-keyed hash table for the injection library (functions seen,
 * instructions already mapped to source lines, cubins kept for that, per-flush sums). It lives
 * inside the traced program, so it uses nothing but libc. */
#ifndef CP_INJECT_TABLE_H
#define CP_INJECT_TABLE_H

#include <stddef.h>

typedef struct cp_inject_entry {
    char *key;   /* owned copy; NULL for an empty slot */
    void *value; /* owned by the caller; released with the free function of cp_inject_table_free */
} cp_inject_entry;

typedef struct cp_inject_table {
    cp_inject_entry *slots;
    size_t capacity; /* a power of two, or 0 before the first insertion */
    size_t count;
} cp_inject_table;

/* The entry for key, inserted with a NULL value when it was absent (*created = 1). NULL only
 * when memory runs out. Entries move when the table grows: keep no pointer to one across
 * insertions. */
cp_inject_entry *cp_inject_table_get(cp_inject_table *t, const char *key, int *created);

/* The entry for key, or NULL. */
cp_inject_entry *cp_inject_table_find(const cp_inject_table *t, const char *key);

/* Releases every key, every value through free_value (when not NULL) and the slots; the table is
 * empty and usable again afterwards. */
void cp_inject_table_free(cp_inject_table *t, void (*free_value)(void *));

#endif
