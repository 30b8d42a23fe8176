/* cp_readonly_measure.c: measuring the readonly family: its kernel's launch and resources, the
 * constant variant's table copied into __constant__ memory, and the check of
 * out[i] = table[entry(i)]. */
#include <stdio.h>
#include <string.h>

#include "cp_measure_family.h"
#include "cp_readonly_kernels.h"
#include "cp_readonly.h"
#include "cp_sass.h"
#include "cp_readonly_config.h"

enum { CP_MEASURE_READONLY_TABLE, CP_MEASURE_READONLY_OUT };

static int cp_measure_readonly_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    CP_CUDA_CHECK(st, cp_kernels_readonly_launch((int)cfg->variant, (int)cfg->lookup,
                                                 r->bufs[CP_MEASURE_READONLY_TABLE],
                                                 r->bufs[CP_MEASURE_READONLY_OUT], c->elements,
                                                 cfg->table_bytes / 4, r->s->stream));
    return CP_EXIT_OK;
}

static cudaError_t cp_measure_readonly_config_resources(const cp_config *c, cp_kernel_resources *k)
{
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    return cp_kernels_readonly_resources((int)cfg->variant, (int)cfg->lookup, k);
}

/* The constant variant reads __constant__ memory: the table's fill is written to the global
 * buffer and copied from there, so that the output check finds the same values. */
static int cp_measure_readonly_fill_input(const cp_cuda_run *r, size_t a, void *buf, int *written,
                                          cp_status *st)
{
    const cp_config *c = r->c;
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    if (a != CP_MEASURE_READONLY_TABLE || cfg->variant != CP_READONLY_VARIANT_CONSTANT)
        return CP_EXIT_OK;
    CP_CUDA_CHECK(st, cp_kernels_fill_launch(buf, cfg->table_bytes, cp_cuda_seed(a), r->s->stream));
    CP_CUDA_CHECK(st, cp_kernels_readonly_constant_load(buf, cfg->table_bytes, r->s->stream));
    *written = 1;
    return CP_EXIT_OK;
}

static uint64_t cp_measure_readonly_src(const cp_config *c, uint64_t i)
{
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    return cp_readonly_entry((uint32_t)i, (uint32_t)(cfg->table_bytes / 4), (int)cfg->lookup);
}

static const cp_cuda_copy cp_measure_readonly_copy = {
    .out = CP_MEASURE_READONLY_OUT,
    .data = CP_MEASURE_READONLY_TABLE,
    .src = cp_measure_readonly_src,
};

/* The table's load: a global load, or an indexed load from constant bank 3 (the kernel's own
 * __constant__ data; bank 0 holds its parameters). */
static int cp_measure_readonly_is_table_load(const char *opcode, const char *line)
{
    return strncmp(opcode, "LDG", 3) == 0 ||
           (strncmp(opcode, "LDC", 3) == 0 && strstr(line, "c[0x3]") != NULL);
}

/* What each kernel's table load compiled to, found once per run (cuobjdump is a process). */
static struct {
    int arch; /* 0: not looked at */
    char opcode[32];
    char reason[120];
} cp_measure_readonly_sass[CP_READONLY_VARIANT_COUNT][CP_LOOKUP_COUNT];

/* The SASS opcode of the table load of c's kernel on this GPU, into m. */
static int cp_measure_readonly_after_timing(const cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    const cp_device_info *d = &r->s->dev;
    if (d->kernel_kind != CP_ARCH_RUN_SASS && d->kernel_kind != CP_ARCH_RUN_COMPATIBLE) {
        snprintf(m->load_opcode_reason, sizeof m->load_opcode_reason,
                 "the driver compiles the kernels from PTX on this GPU: no SASS to read");
        return CP_EXIT_OK;
    }
    __typeof__(cp_measure_readonly_sass[0][0]) *e =
        &cp_measure_readonly_sass[cfg->variant][cfg->lookup];
    if (e->arch != d->kernel_arch) {
        const char *name;
        CP_CUDA_CHECK(st, cp_kernels_readonly_name((int)cfg->variant, (int)cfg->lookup, &name));
        e->arch = d->kernel_arch;
        e->opcode[0] = e->reason[0] = '\0';
        cp_sass_find_opcode(d->kernel_arch, name, cp_measure_readonly_is_table_load, e->opcode,
                            sizeof e->opcode, e->reason, sizeof e->reason);
    }
    snprintf(m->load_opcode, sizeof m->load_opcode, "%s", e->opcode);
    snprintf(m->load_opcode_reason, sizeof m->load_opcode_reason, "%s", e->reason);
    return CP_EXIT_OK;
}

/* The hooks the CUDA backend calls (cp_measure_family.h). */
const cp_measure_family cp_readonly_measure = {
    .launch = cp_measure_readonly_launch,
    .copy = &cp_measure_readonly_copy,
    .config_resources = cp_measure_readonly_config_resources,
    .fill_input = cp_measure_readonly_fill_input,
    .after_timing = cp_measure_readonly_after_timing,
};
