/* test_inject_attach.c: the injection library's run-time entry points (coalprobe_attach,
 * coalprobe_detach, cp_inject_attach.c) without a GPU: refusing cleanly (-1 and a reason, nothing
 * written, the environment as it was) where no CUDA driver can be loaded, a detach with nothing
 * attached refused, and a directory that is not one refused. Where a driver can be loaded (a GPU
 * machine), an attach before CUDA starts, its detach writing a whole raw file, and a second
 * region in the same process. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp_test.h"
#include "cp_test_raw.h"
#include "inject/cp_trace_raw.h"

typedef int (*attach_fn)(const char *, char *, size_t);
typedef int (*detach_fn)(char *, size_t);
typedef int (*detach_interrupted_fn)(const char *, char *, size_t);

/* 1 when the variable name is set to value. */
static int env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v && strcmp(v, value) == 0;
}

static attach_fn attach;
static detach_fn detach;
static detach_interrupted_fn detach_interrupted;

/* The number of entries of dir, . and .. aside. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* Reads DIR/raw-PID.tsv of this process into buf (and removes it). */
static int take_raw(const char *dir, char *buf, size_t n)
{
    char path[4200];
    if (cp_test_read_raw(dir, buf, n, path, sizeof path) != 0)
        return -1;
    unlink(path);
    return 0;
}

static void test_refusals(const char *dir)
{
    char why[512] = "";
    CHECK_EQ_U64(detach(why, sizeof why), (uint64_t)-1);
    CHECK_STR_CONTAINS(why, "nothing is attached");
    why[0] = '\0';
    CHECK_EQ_U64(detach_interrupted("boom", why, sizeof why), (uint64_t)-1);
    CHECK_STR_CONTAINS(why, "nothing is attached");
    why[0] = '\0';
    CHECK_EQ_U64(attach("/nonexistent/coalprobe", why, sizeof why), (uint64_t)-1);
    CHECK_STR_CONTAINS(why, "'/nonexistent/coalprobe' is not a directory");
    CHECK_EQ_U64(attach(NULL, why, sizeof why), (uint64_t)-1);
    CHECK_EQ_U64(entries(dir), 0);
}

/* No driver: the library says so, writes nothing and leaves the environment as it was. */
static void test_no_driver(const char *dir)
{
    unsetenv(CP_TRACE_ENV_DIR);
    unsetenv("NVTX_INJECTION64_PATH");
    char why[512] = "";
    CHECK_EQ_U64(attach(dir, why, sizeof why), (uint64_t)-1);
    CHECK_STR_CONTAINS(why, "no CUDA driver: libcuda.so.1 cannot be loaded");
    CHECK(getenv(CP_TRACE_ENV_DIR) == NULL);
    CHECK(getenv("NVTX_INJECTION64_PATH") == NULL);
    CHECK_EQ_U64(entries(dir), 0);
    /* and nothing is attached after it */
    CHECK_EQ_U64(detach(why, sizeof why), (uint64_t)-1);
}

/* A driver (a GPU machine): two regions before CUDA starts, each raw file whole, the second
 * interrupted. */
static void test_with_driver(const char *dir)
{
    char why[512] = "", raw[16384];
    setenv(CP_TRACE_ENV_DIR, "/somewhere/else", 1);
    int rc = attach(dir, why, sizeof why);
    if (rc != 0) { /* CUPTI may refuse a machine without a GPU: said, and nothing attached */
        CHECK(why[0] != '\0');
        CHECK(env_is(CP_TRACE_ENV_DIR, "/somewhere/else"));
        fprintf(stderr, "test_inject_attach: attach refused here: %s\n", why);
        return;
    }
    CHECK(env_is(CP_TRACE_ENV_DIR, dir));
    CHECK_EQ_U64(attach(dir, why, sizeof why), (uint64_t)-1); /* once at a time */
    CHECK_STR_CONTAINS(why, "traces this process already");
    CHECK_EQ_U64(detach(why, sizeof why), 0);
    CHECK(env_is(CP_TRACE_ENV_DIR, "/somewhere/else"));
    CHECK(take_raw(dir, raw, sizeof raw) == 0);
    CHECK_STR_CONTAINS(raw, "\nnote\tattached to a running process before CUDA was initialised");
    CHECK_STR_CONTAINS(raw, "\nend\t0\t0\n");
    CHECK(strstr(raw, "\ninterrupted\t") == NULL);
    /* a second region in the same process */
    CHECK_EQ_U64(attach(dir, why, sizeof why), 0);
    CHECK_EQ_U64(detach_interrupted("boom", why, sizeof why), 0);
    CHECK(take_raw(dir, raw, sizeof raw) == 0);
    CHECK_STR_CONTAINS(raw, "\ninterrupted\tboom\n");
    CHECK_STR_CONTAINS(raw, "\nend\t0\t0\n");
}

int main(void)
{
    void *lib = dlopen(CP_INJECT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    CHECK(lib != NULL);
    if (!lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return cp_test_finish();
    }
    attach = (attach_fn)dlsym(lib, "coalprobe_attach");
    detach = (detach_fn)dlsym(lib, "coalprobe_detach");
    detach_interrupted = (detach_interrupted_fn)dlsym(lib, "coalprobe_detach_interrupted");
    CHECK(attach && detach && detach_interrupted);
    if (!attach || !detach || !detach_interrupted)
        return cp_test_finish();
    char dir[] = "/tmp/cp_test_inject_attach_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    test_refusals(dir);
    /* whether this machine has a driver, asked as the library would */
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (cuda)
        test_with_driver(dir);
    else
        test_no_driver(dir);
    rmdir(dir);
    return cp_test_finish();
}
