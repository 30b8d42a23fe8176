/* test_trace_inductor.c: the origin of a Triton kernel torch.compile generated, read from the
 * wrapper Inductor wrote beside it (cp_trace_inductor.c), on the two files Inductor generated on
 * the H100 (tests/golden/trace/inductor/), copied into a temporary cache: found for the kernel and
 * the function its wrapper launches; not for another function, another file, or a file that is
 * not Python. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cp_test.h"
#include "trace/cp_trace_report.h"

#define KERNEL_FILE "cnysyg7wi275zinfrjbvkzsbypoeh7glhqvjjwgjtu4ctwfcnges.py"
#define WRAPPER_FILE "cue5newdownel2syetpaosb3mes5n5csztv3mbx46eqn5rpnzvew.py"
#define FUNCTION "triton_poi_fused_add_mul_relu_0"

/* Copies src to dst, each "# kernel path: /tmp/ind/" line pointing into `cache` instead. */
static void copy_into(const char *src, const char *dst, const char *cache)
{
    FILE *in = fopen(src, "r"), *out = fopen(dst, "w");
    CHECK(in && out);
    char line[8192];
    while (in && out && fgets(line, sizeof line, in)) {
        const char *old = "# kernel path: /tmp/ind/";
        if (strncmp(line, old, strlen(old)) == 0)
            fprintf(out, "# kernel path: %s/%s", cache, line + strlen(old));
        else
            fputs(line, out);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
}

int main(void)
{
    char cache[] = "/tmp/coalprobe-test-inductor-XXXXXX";
    CHECK(mkdtemp(cache) != NULL);
    char ny[256], ue[256], kernel[512], wrapper[512], src[512];
    snprintf(ny, sizeof ny, "%s/ny", cache);
    snprintf(ue, sizeof ue, "%s/ue", cache);
    CHECK(mkdir(ny, 0700) == 0 && mkdir(ue, 0700) == 0);
    snprintf(kernel, sizeof kernel, "%s/%s", ny, KERNEL_FILE);
    snprintf(wrapper, sizeof wrapper, "%s/%s", ue, WRAPPER_FILE);
    snprintf(src, sizeof src, "%s/golden/trace/inductor/ny/%s", CP_TEST_DATA_DIR, KERNEL_FILE);
    copy_into(src, kernel, cache);
    snprintf(src, sizeof src, "%s/golden/trace/inductor/ue/%s", CP_TEST_DATA_DIR, WRAPPER_FILE);
    copy_into(src, wrapper, cache);

    cp_trace_inductor o;
    CHECK(cp_trace_inductor_origin(kernel, FUNCTION, &o) == 1);
    CHECK_STR_CONTAINS(o.nodes ? o.nodes : "", "mul, relu, add");
    CHECK(o.nodes && strcmp(o.nodes, "mul, relu, add") == 0);
    CHECK(o.aten && strcmp(o.aten, "aten.mul, aten.relu, aten.add") == 0);
    CHECK(o.wrapper && strcmp(o.wrapper, wrapper) == 0);
    cp_trace_inductor_free(&o);
    CHECK(o.nodes == NULL && o.wrapper == NULL);

    /* another function at that file, another file, a file that is not Python: no origin */
    CHECK(cp_trace_inductor_origin(kernel, "triton_poi_fused_add_mul_relu_1", &o) == 0);
    CHECK(o.nodes == NULL && o.aten == NULL && o.wrapper == NULL);
    char other[512];
    snprintf(other, sizeof other, "%s/ny/other.py", cache);
    CHECK(cp_trace_inductor_origin(other, FUNCTION, &o) == 0);
    CHECK(cp_trace_inductor_origin("/tmp/x/y/kernel.cu", FUNCTION, &o) == 0);
    CHECK(cp_trace_inductor_origin(NULL, FUNCTION, &o) == 0);
    CHECK(cp_trace_inductor_origin("/k.py", FUNCTION, &o) == 0); /* no cache above it */

    unlink(kernel);
    unlink(wrapper);
    rmdir(ny);
    rmdir(ue);
    rmdir(cache);
    return cp_test_finish();
}
