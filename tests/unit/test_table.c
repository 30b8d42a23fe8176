/* test_table.c: the string-keyed hash table of src/base (cp_table): insertion across growth,
 * lookup, the created flag, the caller's number beside the pointer, and freeing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cp_base.h"
#include "cp_test.h"

static void test_values(void)
{
    cp_table t = {0};
    char key[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "k%d", i);
        int created = 0;
        cp_table_entry *e = cp_table_get(&t, key, &created);
        CHECK(e && created);
        if (e) {
            e->value = malloc(sizeof(int));
            if (e->value)
                *(int *)e->value = i;
        }
    }
    CHECK_EQ_U64(t.count, 5000);
    int created = 1;
    cp_table_entry *again = cp_table_get(&t, "k4321", &created);
    CHECK(again && !created && again->value && *(int *)again->value == 4321);
    int ok = 1;
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "k%d", i);
        cp_table_entry *e = cp_table_find(&t, key);
        if (!e || !e->value || *(int *)e->value != i)
            ok = 0;
    }
    CHECK(ok);
    CHECK(cp_table_find(&t, "absent") == NULL);
    cp_table_free(&t, free);
    CHECK_EQ_U64(t.count, 0);
    CHECK(cp_table_find(&t, "k1") == NULL);
}

/* Numbers kept in index, keys with tabs (as the trace reader builds them), the slots walked. */
static void test_indices(void)
{
    cp_table t = {0};
    CHECK(cp_table_find(&t, "") == NULL);
    char key[64];
    for (size_t i = 0; i < 300; i++) {
        snprintf(key, sizeof key, "%zu\tfunction\t0x%zx", i % 7, i);
        cp_table_entry *e = cp_table_get(&t, key, NULL);
        CHECK(e && e->index == 0 && e->value == NULL);
        if (e)
            e->index = i + 1;
    }
    cp_table_entry *empty = cp_table_get(&t, "", NULL);
    CHECK(empty && strcmp(empty->key, "") == 0);
    size_t walked = 0, sum = 0;
    for (size_t i = 0; i < t.capacity; i++)
        if (t.slots[i].key) {
            walked++;
            sum += t.slots[i].index;
        }
    CHECK_EQ_U64(walked, 301);
    CHECK_EQ_U64(sum, 300 * 301 / 2);
    cp_table_entry *e = cp_table_find(&t, "3\tfunction\t0xa");
    CHECK(e && e->index == 11);
    CHECK(cp_table_find(&t, "3\tfunction\t0xA") == NULL);
    CHECK((t.capacity & (t.capacity - 1)) == 0 && t.count * 4 <= t.capacity * 3);
    cp_table_free(&t, NULL);
    CHECK(t.slots == NULL && t.capacity == 0);
    /* usable again after being freed */
    CHECK(cp_table_get(&t, "again", NULL) != NULL && t.count == 1);
    cp_table_free(&t, NULL);
}

/* cp_table_key: the caller's buffer when the key fits, memory of its own when not. */
static void test_key(void)
{
    char buf[8];
    char *k = cp_table_key(buf, sizeof buf, "%u\t%s", 7u, "ab");
    CHECK(k == buf && strcmp(k, "7\tab") == 0);
    k = cp_table_key(buf, sizeof buf, "%u\t%s", 7u, "a longer name");
    CHECK(k && k != buf && strcmp(k, "7\ta longer name") == 0);
    if (k != buf)
        free(k);
    k = cp_table_key(buf, sizeof buf, "%s", "1234567"); /* exactly fits with its NUL */
    CHECK(k == buf && strcmp(k, "1234567") == 0);
}

int main(void)
{
    test_values();
    test_indices();
    test_key();
    return cp_test_finish();
}
