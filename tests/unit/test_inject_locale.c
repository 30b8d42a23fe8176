/* test_inject_locale.c: the injection library writes its numbers with a decimal point inside a
 * program whose locale has a decimal comma (LC_NUMERIC of de_DE): cp_inject_format_double, and
 * the raw file the library itself writes, read back without a malformed line. Skipped (77) when
 * no such locale is installed and none can be built with localedef. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp_test.h"
#include "inject/cp_inject_format.h"
#include "trace/cp_trace_launch.h"
#include "inject/cp_trace_raw.h"
#include "trace/cp_trace_report.h"

static char locale_dir[] = "/tmp/cp_test_locale_XXXXXX";
static int locale_dir_made;
static char raw_dir[] = "/tmp/cp_test_inject_locale_XXXXXX";

static int comma_is_current(void)
{
    const char *point = localeconv()->decimal_point;
    return point && strcmp(point, ",") == 0;
}

/* Sets a locale with a decimal comma for the whole process: an installed one, else de_DE built
 * with localedef into a directory of its own (LOCPATH). 0 when one is in effect. */
static int use_comma_locale(void)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8",  "de_DE",       "fr_FR.UTF-8",
                                        "fr_FR.utf8",  "nl_NL.UTF-8", "es_ES.UTF-8", "it_IT.UTF-8"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (setlocale(LC_ALL, names[i]) && comma_is_current())
            return 0;
    if (!mkdtemp(locale_dir))
        return -1;
    locale_dir_made = 1;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1",
             locale_dir);
    int rc = system(cmd); /* 1 may mean warnings only: whether the locale loads decides */
    (void)rc;
    setenv("LOCPATH", locale_dir, 1);
    return setlocale(LC_ALL, "de_DE.UTF-8") && comma_is_current() ? 0 : -1;
}

static void remove_locale_dir(void)
{
    if (!locale_dir_made)
        return;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", locale_dir);
    int rc = system(cmd);
    (void)rc;
}

static void test_format(void)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.6f", 0.5);
    CHECK(strcmp(buf, "0,500000") == 0); /* the locale is in effect: printf writes a comma */
    cp_inject_format_double(buf, sizeof buf, 0.5, 6);
    CHECK(strcmp(buf, "0.500000") == 0);
    cp_inject_format_double(buf, sizeof buf, 1234.5678, -1);
    CHECK(strcmp(buf, "1234.5678") == 0);
    cp_inject_format_double(buf, sizeof buf, 0.1, -1);
    CHECK(strcmp(buf, "0.10000000000000001") == 0);
    CHECK_EQ_U64(cp_inject_format_double(buf, sizeof buf, 2.0, 3), 5);
    CHECK(strcmp(buf, "2.000") == 0);
    snprintf(buf, sizeof buf, "%.1f", 2.5);
    CHECK(strcmp(buf, "2,5") == 0); /* the program's own locale is left as it was */
}

/* At exit, after the library's handler wrote the time and end records: the raw file read back
 * (in the C locale, as coalprobe reads it) has no malformed line and its times a decimal point. */
static void check_raw_at_exit(void)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s%ld%s", raw_dir, CP_TRACE_RAW_PREFIX, (long)getpid(),
             CP_TRACE_RAW_SUFFIX);
    setlocale(LC_ALL, "C");
    size_t len = 0;
    char *text = cp_text_read_file(path, &len);
    int ok = text != NULL && strstr(text, "\ntime\tinjected\t") != NULL &&
             strstr(text, "\ntime\tcontext_setup\t0.000000\t0\n") != NULL &&
             strstr(text, "\nend\t");
    cp_trace t = {0};
    cp_status st;
    cp_status_clear(&st);
    if (ok && cp_trace_load_text(&t, "raw", text, len, &st) == CP_EXIT_OK && t.nprocs == 1) {
        if (t.procs[0].malformed != 0 || !t.procs[0].complete || t.procs[0].ntimes == 0) {
            fprintf(stderr, "test_inject_locale: %zu malformed lines in the raw file\n",
                    t.procs[0].malformed);
            ok = 0;
        }
    } else {
        ok = 0;
    }
    if (!ok)
        fprintf(stderr, "test_inject_locale: the raw file written in a comma locale:\n%s\n",
                text ? text : "(unreadable)");
    cp_trace_free(&t);
    free(text);
    unlink(path);
    rmdir(raw_dir);
    remove_locale_dir();
    if (!ok)
        _exit(1);
}

static void test_library_writes_points(void)
{
    void *lib = dlopen(CP_INJECT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    int (*init)(void) = lib ? (int (*)(void))dlsym(lib, "InitializeInjection") : NULL;
    CHECK(init != NULL);
    if (!init)
        return;
    CHECK(mkdtemp(raw_dir) != NULL);
    atexit(check_raw_at_exit); /* runs after the library's own, registered by init */
    setenv(CP_TRACE_ENV_DIR, raw_dir, 1);
    CHECK_EQ_U64(init(), 0); /* no CUDA driver here: a raw file with a note, times at exit */
}

int main(void)
{
    if (use_comma_locale() != 0) {
        remove_locale_dir();
        printf("skipped: no locale with a decimal comma is installed and localedef could not "
               "build de_DE.UTF-8\n");
        return 77;
    }
    test_format();
    test_library_writes_points();
    return cp_test_finish();
}
