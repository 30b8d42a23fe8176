/* test_rtc.c: run-time compilation without a GPU: NVRTC's CUBIN, compile errors, a missing
 * NVRTC, and loading that fails cleanly (on a GPU machine the kernel is loaded and run instead). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/cp_rtc.h"
#include "cp_test.h"

static const char fill_source[] =
    "extern \"C\" __global__ void cp_rtc_test_fill(unsigned *out, unsigned n)\n"
    "{\n"
    "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        out[i] = 3u * i + 1u;\n"
    "}\n";

/* Runs fn in a child process, where NVRTC is loaded for the first time, after fn's setenv;
 * the child's exit status says whether its checks passed. */
static void run_in_child(const char *what, void (*fn)(void))
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        fn();
        fflush(stdout);
        fflush(stderr);
        _exit(cp_test_failed ? 1 : 0);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "%s: the child's checks failed (status 0x%x)\n", what, status);
}

/* COALPROBE_NVRTC_LIBRARY names a file that does not exist: compiling is refused with a hint. */
static void missing_library(void)
{
    setenv("COALPROBE_NVRTC_LIBRARY", "/nonexistent/libnvrtc.so.13", 1);
    cp_status st;
    cp_status_clear(&st);
    void *cubin = &st; /* must be reset to NULL */
    size_t size = 99;
    CHECK_EQ_U64(cp_rtc_compile(fill_source, "fill.cu", 9, 0, &cubin, &size, &st), CP_EXIT_RUNTIME);
    CHECK_EQ_U64(st.code, CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "cannot load NVRTC: ");
    CHECK_STR_CONTAINS(st.message, "/nonexistent/libnvrtc.so.13");
    CHECK_STR_CONTAINS(st.hint, "NVRTC");
    CHECK_STR_CONTAINS(st.hint, "LD_LIBRARY_PATH");
    CHECK(cubin == NULL);
    CHECK_EQ_U64(size, 0);
    CHECK(strcmp(cp_rtc_nvrtc_version(), "") == 0);
}

/* A library that is not NVRTC (libm, loaded already) is refused by name of the missing
 * function. */
static void wrong_library(void)
{
    setenv("COALPROBE_NVRTC_LIBRARY", "libm.so.6", 1);
    cp_status st;
    cp_status_clear(&st);
    void *cubin = NULL;
    size_t size = 0;
    CHECK_EQ_U64(cp_rtc_compile(fill_source, "fill.cu", 9, 0, &cubin, &size, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "cannot load NVRTC: libm.so.6 has no nvrtc");
    CHECK(cubin == NULL);
    CHECK(strcmp(cp_rtc_nvrtc_version(), "") == 0);
}

/* Compiles fill_source for cc; checks the result is a CUDA ELF image (EM_CUDA is 190). */
static void check_compiles(int cc_major, int cc_minor)
{
    cp_status st;
    cp_status_clear(&st);
    void *cubin = NULL;
    size_t size = 0;
    int rc =
        cp_rtc_compile(fill_source, "coalprobe_fill.cu", cc_major, cc_minor, &cubin, &size, &st);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "sm_%d%d: %s\nhint: %s\n", cc_major, cc_minor, st.message, st.hint);
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    CHECK(cubin != NULL);
    CHECK(size > 64);
    const unsigned char *b = cubin;
    CHECK(b && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F');
    CHECK(b && size > 20 && b[18] == 190 && b[19] == 0);
    if (b)
        printf("sm_%d%d: CUBIN of %zu bytes\n", cc_major, cc_minor, size);
    free(cubin);
}

/* With a GPU: the kernel compiled for it loads, runs and writes what it should. */
static void run_on_gpu(void)
{
    int dev = 0, major = 0, minor = 0;
    CHECK(cudaGetDevice(&dev) == cudaSuccess);
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess);
    CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess);
    cp_status st;
    cp_status_clear(&st);
    void *cubin = NULL;
    size_t size = 0;
    CHECK_EQ_U64(cp_rtc_compile(fill_source, "fill.cu", major, minor, &cubin, &size, &st),
                 CP_EXIT_OK);

    cp_rtc_module *m = NULL;
    CHECK_EQ_U64(cp_rtc_load(cubin, "no_such_kernel", &m, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "cudaLibraryGetKernel");
    CHECK_STR_CONTAINS(st.hint, "extern \"C\" __global__ void no_such_kernel");
    CHECK(m == NULL);

    cp_status_clear(&st);
    int rc = cp_rtc_load(cubin, "cp_rtc_test_fill", &m, &st);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "cp_rtc_load: %s\n", st.message);
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    free(cubin); /* the library holds its own copy */
    enum { N = 1000 };
    unsigned *d_out = NULL, n = N, host[N];
    CHECK(cudaMalloc((void **)&d_out, sizeof host) == cudaSuccess);
    CHECK(cudaMemset(d_out, 0, sizeof host) == cudaSuccess);
    void *args[] = {&d_out, &n};
    rc = cp_rtc_launch(m, (N + 255) / 256, 256, 0, 0, args, &st);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "cp_rtc_launch: %s\n", st.message);
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    CHECK(cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost) == cudaSuccess);
    int same = 1;
    for (unsigned i = 0; i < N; i++)
        same &= host[i] == 3u * i + 1u;
    CHECK(same);
    printf("GPU sm_%d%d: the compiled kernel ran (%s)\n", major, minor, same ? "right" : "WRONG");
    CHECK(cudaFree(d_out) == cudaSuccess);
    cp_rtc_unload(m);
}

/* Compiling source (named name) for sm_<major><minor> is refused as a runtime error whose
 * message holds needle; cubin, size and st as the compiler leaves them. */
static void check_refused(const char *source, const char *name, int major, int minor, void **cubin,
                          size_t *size, cp_status *st, const char *needle)
{
    cp_status_clear(st);
    CHECK_EQ_U64(cp_rtc_compile(source, name, major, minor, cubin, size, st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st->message, needle);
}

int main(void)
{
    /* The library is loaded once per process: the refusals run in children, first. */
    run_in_child("missing library", missing_library);
    run_in_child("wrong library", wrong_library);
    unsetenv("COALPROBE_NVRTC_LIBRARY");

    /* NVRTC's version is the toolkit's. */
    const char *version = cp_rtc_nvrtc_version();
    char want[16];
    snprintf(want, sizeof want, "%d.", CUDART_VERSION / 1000);
    CHECK(strncmp(version, want, strlen(want)) == 0 && strlen(version) > strlen(want));
    printf("NVRTC %s\n", version);

    /* A valid kernel compiles to a CUBIN without a GPU. */
    check_compiles(9, 0);
    check_compiles(12, 0);

    /* A syntax error: the result name, the source name and the log's error text. */
    cp_status st;
    cp_status_clear(&st);
    void *cubin = &st;
    size_t size = 99;
    const char *bad = "extern \"C\" __global__ void k(int *p)\n{\n    p[0] = 1\n}\n";
    CHECK_EQ_U64(cp_rtc_compile(bad, "coalprobe_bad.cu", 9, 0, &cubin, &size, &st),
                 CP_EXIT_RUNTIME);
    CHECK_EQ_U64(st.code, CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "NVRTC_ERROR_COMPILATION");
    CHECK_STR_CONTAINS(st.message, "coalprobe_bad.cu(4): error: expected a \";\"");
    CHECK_STR_CONTAINS(st.hint, "coalprobe_bad.cu");
    CHECK(strstr(st.message, "[...]") == NULL); /* a short log is whole */
    CHECK(cubin == NULL);
    CHECK_EQ_U64(size, 0);
    printf("compile error message:\n%s\nhint: %s\n", st.message, st.hint);

    /* A long log is cut at a line, within the message, and says so. */
    char many[4096] = "extern \"C\" __global__ void k(int *p)\n{\n";
    for (int i = 0; i < 40; i++) /* each name is reported once */
        snprintf(many + strlen(many), sizeof many - strlen(many), "    p[0] = undefined_%d;\n", i);
    strcat(many, "}\n");
    check_refused(many, "coalprobe_many.cu", 9, 0, &cubin, &size, &st, "NVRTC_ERROR_COMPILATION");
    CHECK_STR_CONTAINS(st.message, "coalprobe_many.cu(3): error: identifier \"undefined_0\"");
    CHECK_STR_CONTAINS(st.message, "\n  [...]");
    CHECK(strlen(st.message) < sizeof st.message - 1);

    /* An architecture this NVRTC cannot compile for, and compute capabilities with no name. */
    check_refused(fill_source, "fill.cu", 3, 0, &cubin, &size, &st,
                  "cannot compile fill.cu for sm_30: NVRTC ");
    CHECK_STR_CONTAINS(st.message, " sm_90");
    CHECK(cubin == NULL);
    /* an architecture newer than this NVRTC knows (sm_999, compute capability 99.9): refused
     * before compiling, naming what it does compile for and the fix */
    check_refused(fill_source, "fill.cu", 99, 9, &cubin, &size, &st,
                  "cannot compile fill.cu for sm_999: NVRTC ");
    CHECK_STR_CONTAINS(st.message, " sm_120");
    CHECK_STR_CONTAINS(st.hint, "CUDA Toolkit");
    CHECK(cubin == NULL && size == 0);
    printf("unknown architecture: %s\nhint: %s\n", st.message, st.hint);
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_rtc_supports_arch(999, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "sm_999");
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_rtc_supports_arch(90, &st), CP_EXIT_OK);
    char path[512];
    CHECK_EQ_U64(cp_rtc_probe(path, sizeof path, &st), CP_EXIT_OK);
    CHECK_STR_CONTAINS(path, "libnvrtc");
    CHECK_EQ_U64(cp_rtc_compile(fill_source, "fill.cu", 0, 0, &cubin, &size, &st), CP_EXIT_RUNTIME);
    CHECK_EQ_U64(cp_rtc_compile(fill_source, "fill.cu", 9, 10, &cubin, &size, &st),
                 CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "compute capability 9.10");

    /* Missing arguments. */
    CHECK_EQ_U64(cp_rtc_compile(NULL, "fill.cu", 9, 0, &cubin, &size, &st), CP_EXIT_RUNTIME);
    CHECK_EQ_U64(cp_rtc_compile(fill_source, NULL, 9, 0, &cubin, &size, &st), CP_EXIT_RUNTIME);
    CHECK_EQ_U64(cp_rtc_compile(fill_source, "fill.cu", 9, 0, NULL, &size, &st), CP_EXIT_RUNTIME);
    CHECK_EQ_U64(cp_rtc_compile(fill_source, "fill.cu", 9, 0, &cubin, NULL, &st), CP_EXIT_RUNTIME);
    cp_rtc_module *m = (cp_rtc_module *)&st; /* must be reset to NULL */
    CHECK_EQ_U64(cp_rtc_load(NULL, "k", &m, &st), CP_EXIT_RUNTIME);
    CHECK(m == NULL);
    CHECK_EQ_U64(cp_rtc_launch(NULL, 1, 1, 0, 0, NULL, &st), CP_EXIT_RUNTIME);

    /* Loading needs a GPU: without one it is an error that names the call, not a crash. */
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        cp_status_clear(&st);
        CHECK_EQ_U64(cp_rtc_compile(fill_source, "fill.cu", 9, 0, &cubin, &size, &st), CP_EXIT_OK);
        m = (cp_rtc_module *)&st;
        CHECK_EQ_U64(cp_rtc_load(cubin, "cp_rtc_test_fill", &m, &st), CP_EXIT_RUNTIME);
        CHECK_EQ_U64(st.code, CP_EXIT_RUNTIME);
        CHECK_STR_CONTAINS(st.message, "cudaLibraryLoadData");
        CHECK_STR_CONTAINS(st.hint, "GPU");
        CHECK(m == NULL);
        printf("no GPU: %s\n", st.message);
        free(cubin);
    } else {
        run_on_gpu();
    }

    cp_rtc_unload(NULL);
    return cp_test_finish();
}
