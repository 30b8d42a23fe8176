/* test_inject.c: the injection library without a GPU: InitializeInjection refusing cleanly
 * (return 0, a raw file saying why) in a process with no CUDA driver loaded, and staying out of
 * the way when coalprobe trace did not start the program; the raw file's lock held from its
 * creation until the end record is written. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp_test.h"
#include "cp_test_raw.h"
#include "inject/cp_trace_lock.h"
#include "inject/cp_trace_raw.h"

static char test_dir[] = "/tmp/cp_test_inject_XXXXXX";

/* Runs after the library's own exit handler (registered later, so run earlier): the raw file
 * must then end with the end record; the directory is removed. */
static void check_end_and_clean(void)
{
    char raw[8192];
    int ok = cp_test_read_raw(test_dir, raw, sizeof raw, NULL, 0) == 0 &&
             strstr(raw, "\nend\t0\t0\n") != NULL;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s%ld%s", test_dir, CP_TRACE_RAW_PREFIX, (long)getpid(),
             CP_TRACE_RAW_SUFFIX);
    int unlocked = !cp_trace_lock_busy(path); /* written: the lock is released */
    unlink(path);
    rmdir(test_dir);
    if (!ok) {
        fprintf(stderr, "test_inject: no end record written at exit\n");
        _exit(1);
    }
    if (!unlocked) {
        fprintf(stderr, "test_inject: the raw file is still locked after its end record\n");
        _exit(1);
    }
}

static void test_initialize_without_driver(void)
{
    void *lib = dlopen(CP_INJECT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    CHECK(lib != NULL);
    if (!lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return;
    }
    int (*init)(void) = (int (*)(void))dlsym(lib, "InitializeInjection");
    CHECK(init != NULL);
    if (!init)
        return;

    /* not started by coalprobe trace: no directory, nothing written, not set up */
    unsetenv(CP_TRACE_ENV_DIR);
    CHECK_EQ_U64(init(), 0);

    char *dir = test_dir;
    CHECK(mkdtemp(dir) != NULL);
    atexit(check_end_and_clean);
    setenv(CP_TRACE_ENV_DIR, dir, 1);
    static const char *const ranks[] = {"RANK",         "LOCAL_RANK",           "WORLD_SIZE",
                                        "SLURM_NODEID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
        unsetenv(ranks[i]);
    setenv("SLURM_PROCID", "5", 1);
    /* this test never touches CUDA, so no driver is loaded: a clean refusal */
    CHECK(dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD) == NULL);
    CHECK_EQ_U64(init(), 0);
    char raw[8192];
    CHECK(cp_test_read_raw(dir, raw, sizeof raw, NULL, 0) == 0);
    char head[64];
    snprintf(head, sizeof head, "%s\t%d\n", CP_TRACE_RAW_MAGIC, CP_TRACE_RAW_VERSION);
    CHECK(strncmp(raw, head, strlen(head)) == 0);
    char process[64];
    snprintf(process, sizeof process, "\nprocess\t%ld\t%ld\t", (long)getpid(), (long)getppid());
    CHECK_STR_CONTAINS(raw, process);
    CHECK_STR_CONTAINS(raw, "test_inject");
    /* the host record right after process, then the rank variables set */
    char host[256] = "", where[600];
    gethostname(host, sizeof host - 1);
    snprintf(where, sizeof where, "test_inject\nhost\t%s\nrank\tSLURM_PROCID\t5\nmetrics\t", host);
    CHECK_STR_CONTAINS(raw, where);
    CHECK_STR_CONTAINS(raw, "\nmetrics\tsmsp__sass_inst_executed_op_global_ld\t");
    CHECK_STR_CONTAINS(raw, "\tsmsp__sass_inst_executed_op_ldgsts\t");
    CHECK_STR_CONTAINS(raw, "\tsmsp__sass_inst_executed_op_tma_st\n"); /* the last column */
    CHECK_STR_CONTAINS(raw, "\nnote\tno CUDA driver in this process: nothing to trace\n");
    CHECK(strstr(raw, "\nend\t") == NULL); /* written at exit */
    /* locked while the process may still write it; no partly created name left behind */
    char path[4200];
    snprintf(path, sizeof path, "%s/%s%ld%s", dir, CP_TRACE_RAW_PREFIX, (long)getpid(),
             CP_TRACE_RAW_SUFFIX);
    CHECK(cp_trace_lock_busy(path));
    snprintf(path, sizeof path, "%s/.%s%ld%s.part", dir, CP_TRACE_RAW_PREFIX, (long)getpid(),
             CP_TRACE_RAW_SUFFIX);
    CHECK(access(path, F_OK) != 0);
    /* a second call (a second cuInit) changes nothing */
    CHECK_EQ_U64(init(), 0);
    char again[8192];
    CHECK(cp_test_read_raw(dir, again, sizeof again, NULL, 0) == 0);
    CHECK(strcmp(raw, again) == 0);
    /* the raw file is left for the atexit handler, which adds the end record */
}

int main(void)
{
    test_initialize_without_driver();
    return cp_test_finish();
}
