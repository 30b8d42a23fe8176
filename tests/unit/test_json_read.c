/* test_json_read.c: unit tests of cp_json_read, the strict reader of every JSON report: one
 * document, no duplicate key, finite numbers, bounded nesting, what is not a regular file refused
 * unread, and whole numbers compared on their digits. */
#define _POSIX_C_SOURCE 200809L
#include "cp_test.h"
#include "report/cp_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/cp_json_read_XXXXXX";

/* The file DIR/name holding text; its path in a static buffer. */
static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

/* Reads text as a file: the exit code, the message in st. */
static int read_text(const char *text, int keep, cp_json_read_result *r, cp_status *st)
{
    cp_status_clear(st);
    return cp_json_read(write_file("doc.json", text), keep, r, st);
}

static void test_accepts(void)
{
    cp_json_read_result r;
    cp_status st;
    CHECK(read_text("  {\"a\": [1, 2.5, {\"b\": null}], \"c\": \"x\\\"}\"}\n\n", 0, &r, &st) ==
          CP_EXIT_OK);
    CHECK(r.root && cJSON_IsObject(r.root));
    cp_json_read_free(&r);
    /* not JSON: no root, no message, where it stopped */
    CHECK(read_text("{\"a\": }", 0, &r, &st) == CP_EXIT_OK);
    CHECK(!r.root && r.error == 6 && st.message[0] == '\0');
    cp_json_read_free(&r);
}

static void test_refuses(void)
{
    cp_json_read_result r;
    cp_status st;
    /* a second document, or trailing garbage */
    CHECK(read_text("{\"a\": 1}\n{\"a\": 1}\n", 0, &r, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "is refused: text after the end of the JSON document (line 2");
    cp_json_read_free(&r);
    CHECK(read_text("\"a\" x", 0, &r, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "text after the end of the JSON document (line 1, byte 4)");
    cp_json_read_free(&r);
    /* a key twice: named, with its object; deep, and in an object of many keys */
    CHECK(read_text("{\"rows\": [{}, {\"config\": {\"n\": 1, \"n\": 2}}]}", 0, &r, &st) ==
          CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "the key \"n\" appears twice (in rows[1].config)");
    cp_json_read_free(&r);
    CHECK(read_text("{\"k\": 1, \"k\": 2}", 0, &r, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "the key \"k\" appears twice (in the top-level object)");
    cp_json_read_free(&r);
    char many[2048] = "{";
    for (int i = 0; i < 40; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "\"k%d\": %d, ", i, i);
    strcat(many, "\"k17\": 0}");
    CHECK(read_text(many, 0, &r, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "the key \"k17\" appears twice");
    cp_json_read_free(&r);
    /* a number beyond a double */
    CHECK(read_text("{\"a\": {\"b\": [0, -1e400]}}", 0, &r, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "the number -1e400 is beyond the range of a double (line 1, "
                                   "in a.b[1])");
    cp_json_read_free(&r);
    /* nesting deeper than cJSON's limit: refused while reading */
    char *deep = malloc(3000);
    memset(deep, '[', 2999);
    deep[2999] = '\0';
    CHECK(read_text(deep, 0, &r, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "nesting deeper than cJSON's limit of 1000 levels (line 1, "
                                   "byte 1000)");
    CHECK(!r.text && !r.root);
    cp_json_read_free(&r);
    free(deep);
}

static void test_nul(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/nul.json", dir);
    FILE *f = fopen(path, "w");
    fwrite("{\"a\":\0}", 1, 7, f);
    fclose(f);
    cp_json_read_result r;
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_json_read(path, 0, &r, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "a NUL byte: it is not text (line 1, byte 5)");
    cp_json_read_free(&r);
}

static void test_not_regular(void)
{
    char fifo[256];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    cp_json_read_result r;
    cp_status st;
    cp_status_clear(&st);
    /* no writer: a blocking open would never return */
    CHECK(cp_json_read(fifo, 0, &r, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "' is not a regular file (a FIFO or pipe)");
    CHECK_STR_CONTAINS(st.hint, "give -");
    cp_json_read_free(&r);
    cp_status_clear(&st);
    CHECK(cp_json_read("/dev/null", 0, &r, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "'/dev/null' is not a regular file (a character device)");
    cp_json_read_free(&r);
    unlink(fifo);
}

static void test_numbers_kept(void)
{
    cp_json_read_result r;
    cp_status st;
    CHECK(read_text("{\"s\": \"1 2 -3e5\", \"a\": [9007199254740993, {\"x\": -0.5e-3}], "
                    "\"t\": true, \"b\": 1E+2}",
                    1, &r, &st) == CP_EXIT_OK);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(r.root, "a");
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(a, 1), "x");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(r.root, "b");
    CHECK(cJSON_IsNumber(cJSON_GetArrayItem(a, 0)));
    CHECK(cJSON_GetArrayItem(a, 0)->valuestring &&
          strcmp(cJSON_GetArrayItem(a, 0)->valuestring, "9007199254740993") == 0);
    CHECK(x && x->valuestring && strcmp(x->valuestring, "-0.5e-3") == 0);
    CHECK(b && b->valuestring && strcmp(b->valuestring, "1E+2") == 0);
    cp_json_read_free(&r);
}

static void test_same_number(void)
{
    CHECK(cp_json_read_same_number("9007199254740992", "9007199254740993") == 0);
    CHECK(cp_json_read_same_number("9007199254740993", "9007199254740993") == 1);
    CHECK(cp_json_read_same_number("1e300", "1e301") == 0);
    CHECK(cp_json_read_same_number("100", "1e2") == 1);
    CHECK(cp_json_read_same_number("100", "1.00E+2") == 1);
    CHECK(cp_json_read_same_number("0.5", "5e-1") == 1);
    CHECK(cp_json_read_same_number("0", "-0.0e5") == 1);
    CHECK(cp_json_read_same_number("-1", "1") == 0);
    CHECK(cp_json_read_same_number("18446744073709551616", "18446744073709551617") == 0);
    CHECK(cp_json_read_same_number("12", "x") == -1);
    CHECK(cp_json_read_same_number("1.", "1") == -1);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    test_accepts();
    test_refuses();
    test_nul();
    test_not_regular();
    test_numbers_kept();
    test_same_number();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return cp_test_finish();
}
