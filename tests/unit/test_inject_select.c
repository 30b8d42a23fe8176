/* test_inject_select.c: the injection library's choice of launches without a GPU: --kernel on
 * demangled names, --launch-skip and --launch-count per kernel, --nvtx-include, --capture-range
 * profiler-api, the per-kernel counters' sample (--counter-launches per kernel and launch shape,
 * --all-launches), CUDA graph launches, the options read from the environment, and the
 * selection and launches_seen records written. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cp_test.h"

/* the module itself, its statics included */
#include "inject/cp_inject_format.c"
#include "inject/cp_inject_select.c"

static const cp_inject_shape shape_a = {{64, 1, 1}, {256, 1, 1}, 0};
static const cp_inject_shape shape_b = {{128, 1, 1}, {256, 1, 1}, 0};
static const cp_inject_shape shape_c = {{64, 1, 1}, {256, 1, 1}, 4096};

static cp_inject_select_options defaults(void)
{
    cp_inject_select_options o = {0};
    o.launch_count = CP_INJECT_SELECT_ALL;
    o.counter_launches = 5; /* --counter-launches 5: the sampling most tests here check */
    return o;
}

/* With memos (as the injection library keeps one a function) or without: every test below runs
 * both ways and must decide the same. Memos are freed by cp_inject_select_free: forget() after. */
static int use_memos;
static struct {
    const char *fn;
    cp_inject_select_memo *memo;
} memos[8];

static void forget(void)
{
    memset(memos, 0, sizeof memos);
}

static cp_inject_select_memo **memo_of(const char *fn)
{
    if (!use_memos)
        return NULL;
    for (size_t i = 0; i < CP_COUNT_OF(memos); i++)
        if (!memos[i].fn || strcmp(memos[i].fn, fn) == 0) {
            memos[i].fn = fn;
            return &memos[i].memo;
        }
    return NULL;
}

/* cp_inject_select_configure, which frees the memos handed out before. */
static int configure(const cp_inject_select_options *o, char *why, size_t why_size)
{
    forget();
    return cp_inject_select_configure(o, why, why_size);
}

/* Launches fn n times with shape s (inside the NVTX range when in_nvtx): adds the counted and
 * sampled ones to *counted and *sampled. */
static void launch(const char *fn, const cp_inject_shape *s, int in_nvtx, int n, int *counted,
                   int *sampled)
{
    for (int i = 0; i < n; i++) {
        int c = -1, m = -1;
        cp_inject_select_launch(0, fn, 0, s, in_nvtx, memo_of(fn), &c, &m);
        CHECK(c == 0 || c == 1);
        CHECK(m == 0 || (m == 1 && c == 1)); /* only a counted launch is sampled */
        *counted += c;
        *sampled += m;
    }
}

static char *written(void (*write)(FILE *))
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    write(f);
    fclose(f);
    return buf;
}

/* --counter-launches 5: every launch counted, the first 5 of each kernel and shape sampled. */
static void test_sampling(void)
{
    cp_inject_select_options o = defaults();
    char why[300] = "";
    CHECK(configure(&o, why, sizeof why) == 0);
    CHECK(!cp_inject_select_filters());
    int counted = 0, sampled = 0;
    launch("_Z4copyPKfPfi", &shape_a, 0, 1400, &counted, &sampled);
    CHECK(counted == 1400 && sampled == 5);
    counted = sampled = 0;
    launch("_Z4copyPKfPfi", &shape_b, 0, 10, &counted, &sampled); /* another grid: its own 5 */
    CHECK(counted == 10 && sampled == 5);
    counted = sampled = 0;
    launch("_Z4copyPKfPfi", &shape_c, 0, 3, &counted, &sampled); /* dynamic shared memory too */
    CHECK(counted == 3 && sampled == 3);
    counted = sampled = 0;
    launch("_Z4copyPKfPfi", NULL, 0, 7, &counted, &sampled); /* shape unknown: one of its own */
    CHECK(counted == 7 && sampled == 5);
    counted = sampled = 0;
    launch("vec_add", &shape_a, 0, 2, &counted, &sampled); /* another kernel, same shape */
    CHECK(counted == 2 && sampled == 2);
    char *seen = written(cp_inject_select_write_counts);
    CHECK_STR_CONTAINS(seen, "launches_seen\t0\t_Z4copyPKfPfi\t1420\t1420\t18\n");
    CHECK_STR_CONTAINS(seen, "launches_seen\t0\tvec_add\t2\t2\t2\n");
    free(seen);
    char *opts = written(cp_inject_select_write_options);
    CHECK(strcmp(opts, "selection\tcounter_launches\t5\n") == 0);
    free(opts);
    /* a graph: its first 5 launches, each graph on its own */
    int g = 0, h = 0;
    for (int i = 0; i < 9; i++) {
        g += cp_inject_select_graph((void *)0x1000);
        h += cp_inject_select_graph((void *)0x2000);
    }
    CHECK(g == 5 && h == 5);
    cp_inject_select_node(0, "vec_add", 0, 1);
    cp_inject_select_node(0, "vec_add", 0, 0);
    seen = written(cp_inject_select_write_counts);
    CHECK_STR_CONTAINS(seen, "launches_seen\t0\tvec_add\t4\t4\t3\n");
    free(seen);
    cp_inject_select_free();
    forget();
}

/* --counter-launches 0: every launch counted, none sampled; two cubins' functions of one name
 * tallied apart, the one of no known cubin by name. */
static void test_default_and_cubins(void)
{
    cp_inject_select_options o = defaults();
    o.counter_launches = 0;
    char why[300] = "";
    CHECK(configure(&o, why, sizeof why) == 0);
    int c = 0, m = 0;
    for (int i = 0; i < 4; i++) {
        int ci = 0, mi = 0;
        cp_inject_select_launch(0, "triton_poi_0", 0x7c98d035u, &shape_a, 0, NULL, &ci, &mi);
        c += ci, m += mi;
    }
    CHECK(c == 4 && m == 0);
    cp_inject_select_launch(0, "triton_poi_0", 0xa217f5c1u, &shape_a, 0, NULL, &c, &m);
    cp_inject_select_node(0, "triton_poi_0", 0xa217f5c1u, 0);
    cp_inject_select_launch(0, "triton_poi_0", 0, &shape_a, 0, NULL, &c, &m);
    char *seen = written(cp_inject_select_write_counts);
    CHECK_STR_CONTAINS(seen, "launches_seen\t0\ttriton_poi_0\t4\t4\t0\t7c98d035\n");
    CHECK_STR_CONTAINS(seen, "launches_seen\t0\ttriton_poi_0\t2\t2\t0\ta217f5c1\n");
    CHECK_STR_CONTAINS(seen, "launches_seen\t0\ttriton_poi_0\t1\t1\t0\n");
    free(seen);
    char *opts = written(cp_inject_select_write_options);
    CHECK(strcmp(opts, "selection\tcounter_launches\t0\n") == 0);
    free(opts);
    cp_inject_select_free();
    forget();
}

/* --all-launches and --counter-launches 0. */
static void test_all_and_none(void)
{
    cp_inject_select_options o = defaults();
    o.counter_launches = CP_INJECT_SELECT_ALL;
    char why[300] = "";
    CHECK(configure(&o, why, sizeof why) == 0);
    int counted = 0, sampled = 0;
    launch("k", &shape_a, 0, 100, &counted, &sampled);
    CHECK(counted == 100 && sampled == 100);
    CHECK(cp_inject_select_graph((void *)0x1000) == 1);
    char *opts = written(cp_inject_select_write_options);
    CHECK(strcmp(opts, "selection\tcounter_launches\tall\n") == 0);
    free(opts);
    o.counter_launches = 0;
    CHECK(configure(&o, why, sizeof why) == 0);
    counted = sampled = 0;
    launch("k", &shape_a, 0, 100, &counted, &sampled);
    CHECK(counted == 100 && sampled == 0);
    cp_inject_select_free();
    forget();
}

/* --kernel on the demangled name, as the report's --kernel. */
static void test_kernel(void)
{
    cp_inject_select_options o = defaults();
    o.kernel_regex = "^transpose_(naive|tiled)\\(float\\*";
    char why[300] = "";
    CHECK(configure(&o, why, sizeof why) == 0);
    CHECK(cp_inject_select_filters());
    CHECK(cp_inject_select_matches(0, "_Z15transpose_naivePfPKfii"));
    CHECK(!cp_inject_select_matches(0, "_Z4copyPKfPfi"));
    CHECK(!cp_inject_select_matches(0, "transpose_naive")); /* C: as CUPTI names it, no '(' */
    int counted = 0, sampled = 0;
    launch("_Z15transpose_naivePfPKfii", &shape_a, 0, 8, &counted, &sampled);
    CHECK(counted == 8 && sampled == 5);
    counted = sampled = 0;
    launch("_Z4copyPKfPfi", &shape_a, 0, 8, &counted, &sampled);
    CHECK(counted == 0 && sampled == 0);
    char *seen = written(cp_inject_select_write_counts);
    CHECK_STR_CONTAINS(seen, "launches_seen\t0\t_Z4copyPKfPfi\t8\t0\t0\n");
    free(seen);
    char *opts = written(cp_inject_select_write_options);
    CHECK_STR_CONTAINS(opts, "selection\tkernel\t^transpose_(naive|tiled)\\\\(float\\\\*\n");
    free(opts);
    /* a C kernel's name as it is */
    o.kernel_regex = "^vec_";
    CHECK(configure(&o, why, sizeof why) == 0);
    CHECK(cp_inject_select_matches(0, "vec_add"));
    /* one that does not compile: every kernel, said */
    o.kernel_regex = "(";
    CHECK(configure(&o, why, sizeof why) == -1);
    CHECK_STR_CONTAINS(why, "does not compile");
    CHECK(cp_inject_select_matches(0, "anything"));
    cp_inject_select_free();
    forget();
}

/* --launch-skip and --launch-count, per kernel, after the other filters (as ncu's). */
static void test_skip_count(void)
{
    cp_inject_select_options o = defaults();
    o.launch_skip = 3;
    o.launch_count = 4;
    char why[300] = "";
    CHECK(configure(&o, why, sizeof why) == 0);
    int seq[10], c, m;
    for (int i = 0; i < 10; i++) {
        cp_inject_select_launch(0, "a", 0, &shape_a, 0, memo_of("a"), &c, &m);
        seq[i] = c;
        if (i % 2 == 0) { /* another kernel between: its own count */
            int c2, m2;
            cp_inject_select_launch(0, "b", 0, &shape_a, 0, memo_of("b"), &c2, &m2);
        }
    }
    static const int want[10] = {0, 0, 0, 1, 1, 1, 1, 0, 0, 0};
    CHECK(memcmp(seq, want, sizeof want) == 0);
    char *seen = written(cp_inject_select_write_counts);
    CHECK_STR_CONTAINS(seen, "launches_seen\t0\ta\t10\t4\t4\n");
    CHECK_STR_CONTAINS(seen, "launches_seen\t0\tb\t5\t2\t2\n");
    free(seen);
    char *opts = written(cp_inject_select_write_options);
    CHECK_STR_CONTAINS(opts, "selection\tlaunch_skip\t3\nselection\tlaunch_count\t4\n");
    free(opts);
    cp_inject_select_free();
    forget();
}

/* --nvtx-include and --capture-range profiler-api. */
static void test_nvtx_and_capture(void)
{
    cp_inject_select_options o = defaults();
    o.nvtx_include = "step";
    o.launch_skip = 1; /* counted among the launches inside the range only */
    char why[300] = "";
    CHECK(configure(&o, why, sizeof why) == 0);
    int counted = 0, sampled = 0;
    launch("a", &shape_a, 0, 5, &counted, &sampled);
    CHECK(counted == 0);
    launch("a", &shape_a, 1, 5, &counted, &sampled);
    CHECK(counted == 4 && sampled == 4);
    cp_inject_select_free();
    forget();

    o = defaults();
    o.capture_profiler_api = 1;
    CHECK(configure(&o, why, sizeof why) == 0);
    CHECK(!cp_inject_select_capturing()); /* nothing before the first start */
    counted = sampled = 0;
    launch("a", &shape_a, 0, 3, &counted, &sampled);
    CHECK(counted == 0);
    cp_inject_select_profiler(1);
    launch("a", &shape_a, 0, 3, &counted, &sampled);
    CHECK(counted == 3 && sampled == 3);
    cp_inject_select_profiler(0);
    launch("a", &shape_a, 0, 3, &counted, &sampled);
    CHECK(counted == 3);
    cp_inject_select_profiler(1);
    launch("a", &shape_a, 0, 3, &counted, &sampled);
    CHECK(counted == 6 && sampled == 5);
    char *opts = written(cp_inject_select_write_options);
    CHECK_STR_CONTAINS(opts, "selection\tcapture_range\tprofiler-api\n");
    free(opts);
    cp_inject_select_free();
    forget();
    /* without --capture-range the program's calls change nothing */
    o = defaults();
    CHECK(configure(&o, why, sizeof why) == 0);
    cp_inject_select_profiler(0);
    CHECK(cp_inject_select_capturing());
    cp_inject_select_free();
    forget();
}

/* The environment the launcher sets. */
static void test_env(void)
{
    cp_inject_select_options o;
    char why[300] = "";
    unsetenv("COALPROBE_TRACE_KERNEL");
    unsetenv("COALPROBE_TRACE_LAUNCH_SKIP");
    unsetenv("COALPROBE_TRACE_LAUNCH_COUNT");
    unsetenv("COALPROBE_TRACE_NVTX_INCLUDE");
    unsetenv("COALPROBE_TRACE_CAPTURE_RANGE");
    unsetenv("COALPROBE_TRACE_COUNTER_LAUNCHES");
    CHECK(cp_inject_select_from_env(&o, why, sizeof why) == 0);
    CHECK(o.counter_launches == 5 && o.launch_count == CP_INJECT_SELECT_ALL && !o.launch_skip &&
          !o.kernel_regex && !o.nvtx_include && !o.capture_profiler_api);
    setenv("COALPROBE_TRACE_KERNEL", "gemm", 1);
    setenv("COALPROBE_TRACE_LAUNCH_SKIP", "10", 1);
    setenv("COALPROBE_TRACE_LAUNCH_COUNT", "2", 1);
    setenv("COALPROBE_TRACE_NVTX_INCLUDE", "step", 1);
    setenv("COALPROBE_TRACE_CAPTURE_RANGE", "profiler-api", 1);
    setenv("COALPROBE_TRACE_COUNTER_LAUNCHES", "all", 1);
    CHECK(cp_inject_select_from_env(&o, why, sizeof why) == 0);
    CHECK(o.counter_launches == CP_INJECT_SELECT_ALL && o.launch_count == 2 &&
          o.launch_skip == 10 && strcmp(o.kernel_regex, "gemm") == 0 &&
          strcmp(o.nvtx_include, "step") == 0 && o.capture_profiler_api);
    setenv("COALPROBE_TRACE_LAUNCH_SKIP", "0x10", 1); /* decimal only */
    setenv("COALPROBE_TRACE_COUNTER_LAUNCHES", "-1", 1);
    CHECK(cp_inject_select_from_env(&o, why, sizeof why) == -1);
    CHECK(o.launch_skip == 0 && o.counter_launches == 5);
    CHECK_STR_CONTAINS(why, "is not a whole number");
    /* --instructions: sampled said in a selection record; every (the default) writes none */
    unsetenv("COALPROBE_TRACE_LAUNCH_SKIP");
    unsetenv("COALPROBE_TRACE_COUNTER_LAUNCHES");
    unsetenv("COALPROBE_TRACE_KERNEL");
    unsetenv("COALPROBE_TRACE_LAUNCH_COUNT");
    unsetenv("COALPROBE_TRACE_NVTX_INCLUDE");
    unsetenv("COALPROBE_TRACE_CAPTURE_RANGE");
    setenv("COALPROBE_TRACE_INSTRUCTIONS", "every", 1);
    CHECK(cp_inject_select_from_env(&o, why, sizeof why) == 0 && !o.instructions_sampled);
    setenv("COALPROBE_TRACE_INSTRUCTIONS", "sampled", 1);
    CHECK(cp_inject_select_from_env(&o, why, sizeof why) == 0 && o.instructions_sampled);
    CHECK(cp_inject_select_configure(&o, why, sizeof why) == 0);
    char *opts = written(cp_inject_select_write_options);
    CHECK(strcmp(opts, "selection\tcounter_launches\t5\nselection\tinstructions\tsampled\n") == 0);
    free(opts);
    o.instructions_sampled = 0;
    CHECK(cp_inject_select_configure(&o, why, sizeof why) == 0);
    opts = written(cp_inject_select_write_options);
    CHECK(strcmp(opts, "selection\tcounter_launches\t5\n") == 0);
    free(opts);
    cp_inject_select_free();
    unsetenv("COALPROBE_TRACE_INSTRUCTIONS");
}

int main(void)
{
    for (use_memos = 0; use_memos < 2; use_memos++) {
        test_sampling();
        test_default_and_cubins();
        test_all_and_none();
        test_kernel();
        test_skip_count();
        test_nvtx_and_capture();
    }
    test_env();
    return cp_test_finish();
}
