/* cp_table.h: a string-keyed hash table (open addressing, FNV-1a). It uses nothing but libc, so
 * the injection library, which runs inside the traced program, builds it too. */
#ifndef CP_TABLE_H
#define CP_TABLE_H

#include <stddef.h>

typedef struct cp_table_entry {
    char *key;    /* owned copy; NULL for an empty slot */
    void *value;  /* the caller's pointer, released by the free function of cp_table_free */
    size_t index; /* or the caller's number (a position in an array of its own) */
} cp_table_entry;

/* An empty table is {0}. Walk every entry by slots[0..capacity), skipping NULL keys. */
typedef struct cp_table {
    cp_table_entry *slots;
    size_t capacity; /* a power of two, or 0 before the first insertion */
    size_t count;
} cp_table;

/* The entry for key, inserted with a NULL value and index 0 when it was absent (*created = 1).
 * NULL only when memory runs out. Entries move when the table grows: keep no pointer to one
 * across insertions. */
cp_table_entry *cp_table_get(cp_table *t, const char *key, int *created);

/* The entry for key, or NULL. */
cp_table_entry *cp_table_find(const cp_table *t, const char *key);

/* A key made as printf makes it from fmt: in buf (size bytes) when it fits, else in memory of its
 * own, which the caller frees (key != buf); NULL when that memory runs out. */
char *cp_table_key(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Releases every key, every value through free_value (when not NULL) and the slots; the table is
 * empty and usable again afterwards. */
void cp_table_free(cp_table *t, void (*free_value)(void *));

#endif
