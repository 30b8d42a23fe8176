/* test_trace_coverage.c: trace's coverage (the part of a kernel's global traffic its counts
 * attribute to instructions) against values derived by hand: the hand-made fixture
 * handmade-coverage (a TMA copy, a plain copy, a spilling copy) and kernels built here. */
#define _POSIX_C_SOURCE 200809L
#include "cp_test.h"
#include "trace/cp_trace_report.h"

#include <math.h>
#include <string.h>

#define FIXTURES CP_TEST_DATA_DIR "/golden/trace"

static const cp_trace_kernel *find(const cp_trace *t, const char *function)
{
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t i = 0; i < t->procs[p].nkernels; i++)
            if (strcmp(t->procs[p].kernels[i].function, function) == 0)
                return &t->procs[p].kernels[i];
    return NULL;
}

static int near(double x, double want)
{
    return fabs(x - want) <= 1e-9 * fmax(1, fabs(want));
}

static void test_fixture(void)
{
    cp_trace t;
    cp_status st = {0};
    CHECK(cp_trace_load_dir(FIXTURES "/handmade-coverage", &t, NULL, &st) == CP_EXIT_OK);
    cp_trace_options o = {5, NULL, 0, NAN, NAN, NAN, CP_TRACE_GROUP_KERNEL, 0.25};
    cp_trace_run run = {0};
    cp_trace_report r;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    const double s = 32, w = 8192; /* bytes a sector; warps of each kernel */
    /* TMA reads 1 MiB, the STG writes 1 MiB: half is counted */
    const cp_trace_kernel *tma = find(&t, "_Z8tma_copyPKfPfi");
    CHECK(tma && near(tma->cov.attributed_bytes, 4 * w * s) &&
          near(tma->cov.tma_load_bytes, 4 * w * s) && near(tma->cov.tma_store_bytes, 0) &&
          near(tma->cov.local_bytes, 0) && near(tma->cov.fraction, 0.5) && !tma->cov.excess_known &&
          strcmp(tma->cov.basis, "counters") == 0);
    CHECK(tma && strstr(tma->cov.reason, "TMA copies moved 1.05 MB") != NULL);
    const cp_trace_kernel *copy = find(&t, "_Z4copyPKfPfi");
    CHECK(copy && near(copy->cov.attributed_bytes, 8 * w * s) && near(copy->cov.fraction, 1) &&
          copy->cov.excess_known && copy->cov.reason[0] == '\0');
    /* local memory: 2 MiB counted of 2.5 MiB */
    const cp_trace_kernel *spill = find(&t, "_Z5spillPKfPfi");
    CHECK(spill && near(spill->cov.local_bytes, 2 * w * s) && near(spill->cov.fraction, 0.8) &&
          !spill->cov.excess_known);
    CHECK(spill && strstr(spill->cov.reason, "local memory moved 524 kB") != NULL);
    /* the program: the kernels' parts added up */
    CHECK(near(r.program_coverage.attributed_bytes, 20 * w * s) &&
          near(r.program_coverage.fraction, 20.0 / 26) && !r.program_coverage.excess_known);
    CHECK_STR_CONTAINS(r.program_coverage.reason, "the excess of 2 kernels is not known");
    cp_trace_report_free(&r);

    /* the gate at 0.8: the TMA copy (0.5) fails, the spilling copy (0.8) passes */
    o.min_coverage = 0.8;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK(r.gate_checked && r.gate_judged_coverage == 3 && r.nviolations == 1 &&
          strcmp(r.violations[0].what, "coverage") == 0 && near(r.violations[0].value, 0.5) &&
          r.violations[0].kernel->gate_failed);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* A kernel counted from its instructions: 1 MiB of global sectors, no TMA or local instruction. */
static cp_trace_kernel counted(void)
{
    cp_trace_kernel k;
    memset(&k, 0, sizeof k);
    k.from = CP_TRACE_FROM_INSTRUCTIONS;
    k.d.sectors = 32768;
    k.d.tma_requests = 0;
    k.d.local_requests = 0;
    return k;
}

static void set_kc(cp_trace_kernel *k, int m, double v)
{
    k->kc.value[m] = v;
    k->kc.has |= 1u << m;
}

static void test_cases(void)
{
    cp_trace_coverage c;
    /* no coverage counters, but no instruction of a kind they would count ran: all is counted */
    cp_trace_kernel k = counted();
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(c.fraction == 1 && c.excess_known && strcmp(c.basis, "instruction_kinds") == 0);
    /* the same with TMA copies that ran: not known, and said why */
    k.d.tma_requests = 64;
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(isnan(c.fraction) && !c.excess_known && c.basis == NULL);
    CHECK_STR_CONTAINS(c.reason, "64 TMA copies and 0 local memory requests ran");
    CHECK_STR_CONTAINS(c.reason, "--kernel-counters full");
    /* a raw file without the kinds' metrics: nothing tells what ran */
    k = counted();
    k.d.tma_requests = NAN;
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(isnan(c.fraction) && !c.excess_known);
    /* counted as a whole, without the counters: unknown */
    k = counted();
    k.from = CP_TRACE_FROM_KERNEL;
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(isnan(c.fraction));
    /* at the edge: 90% counted is enough, just below is not */
    k = counted();
    k.d.sectors = 9000;
    set_kc(&k, CP_TRACE_K_TMA_LD, 1000);
    set_kc(&k, CP_TRACE_K_TMA_ST, 0);
    set_kc(&k, CP_TRACE_K_LOCAL, 0);
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(near(c.fraction, 0.9) && c.excess_known && strcmp(c.basis, "counters") == 0);
    set_kc(&k, CP_TRACE_K_TMA_LD, 1001);
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(c.fraction < 0.9 && !c.excess_known);
    /* TMA stores count like TMA loads, local memory like TMA */
    k = counted();
    set_kc(&k, CP_TRACE_K_TMA_LD, 0);
    set_kc(&k, CP_TRACE_K_TMA_ST, 32768);
    set_kc(&k, CP_TRACE_K_LOCAL, 32768);
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(near(c.fraction, 1.0 / 3) && near(c.tma_store_bytes, 32768 * 32) &&
          near(c.local_bytes, 32768 * 32));
    /* nothing moved at all: everything there is was counted */
    k = counted();
    k.d.sectors = 0;
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(c.fraction == 1 && c.excess_known);
    /* counters of 2 of 8 launches beside instructions of all 8: their mean stands for all */
    k = counted();
    k.launches = 8;
    k.kc.records = 2;
    k.d.sectors = 8 * 1000;
    set_kc(&k, CP_TRACE_K_TMA_LD, 2 * 1000);
    set_kc(&k, CP_TRACE_K_TMA_ST, 0);
    set_kc(&k, CP_TRACE_K_LOCAL, 0);
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(strcmp(c.basis, "sampled_counters") == 0 && near(c.tma_load_bytes, 8 * 1000 * 32) &&
          near(c.fraction, 0.5));
    /* --instructions sampled: instructions and counters of the same 2 launches, unscaled */
    k.instructions_sampled = 1;
    k.d.sectors = 2 * 1000;
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(c.basis && strcmp(c.basis, "sampled_launches") == 0 &&
          near(c.tma_load_bytes, 2 * 1000 * 32) && near(c.attributed_bytes, 2 * 1000 * 32) &&
          near(c.fraction, 0.5) && !c.excess_known);
    /* a kernel launched and not counted has no coverage */
    k = counted();
    k.from = CP_TRACE_FROM_NONE;
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(isnan(c.attributed_bytes) && isnan(c.fraction) && !c.excess_known);
}

/* TMA copies judged by the tensor maps the kernel's launches passed (issue 45): whole-sector
 * maps on every launch make the excess known without TMA's counters; anything less does not. */
static void test_tensor_map_geometry(void)
{
    cp_trace_tmap maps[2];
    memset(maps, 0, sizeof maps);
    for (int i = 0; i < 2; i++) {
        maps[i].kind = "tiled", maps[i].data_type = "float16", maps[i].element_bits = 16;
        maps[i].rank = 2, maps[i].nbox = 2, maps[i].alignment = 256;
        maps[i].dims[0] = maps[i].dims[1] = 4096, maps[i].strides[0] = 8192;
        maps[i].box[0] = 64, maps[i].box[1] = 64; /* rows of 128 B: whole sectors */
    }
    maps[1].box[0] = 24; /* rows of 48 B: not */
    cp_trace_process p;
    memset(&p, 0, sizeof p);
    p.tmaps = maps, p.ntmaps = 2;
    cp_trace_kernel_tmap used[2] = {{0, 12}, {1, 12}};
    cp_trace_instr copy;
    memset(&copy, 0, sizeof copy);
    copy.opcode = "UTMALDG.2D";
    copy.d.tma_requests = 384;
    cp_trace_kernel k = counted();
    k.d.tma_requests = 384;
    k.instrs = &copy, k.ninstrs = 1;
    k.launches = 12, k.tmaps = used, k.ntmaps = 1, k.tmap_checked = 12;
    cp_trace_coverage c;
    cp_trace_coverage_of(&p, &k, &c);
    CHECK(c.excess_known && strcmp(c.basis, "tensor_map_geometry") == 0 && isnan(c.fraction) &&
          isnan(c.tma_load_bytes) && c.local_bytes == 0 && c.tma_excess_bytes == 0 &&
          c.tma_copies == 384 && !c.tma_edge);
    /* two maps that waste differently: which copy used which is not seen, so no verdict */
    k.ntmaps = 2;
    cp_trace_coverage_of(&p, &k, &c);
    CHECK(!c.excess_known && c.basis == NULL && strstr(c.reason, "differ in what a copy wastes"));
    /* the 48-byte rows alone: each copy's 64 rows move 16 bytes past their 48, exactly (the
     * tensor a whole number of boxes); an edge makes it an estimate */
    k.tmaps = &used[1], k.ntmaps = 1;
    maps[1].dims[0] = 4080; /* 170 boxes across */
    cp_trace_coverage_of(&p, &k, &c);
    CHECK(c.excess_known && c.by_maps && c.tma_excess_bytes == 384.0 * 64 * 16 && !c.tma_edge);
    maps[1].dims[0] = 4000;
    cp_trace_coverage_of(&p, &k, &c);
    CHECK(c.excess_known && c.tma_excess_bytes == 384.0 * 64 * 16 && c.tma_edge);
    /* rows of whole sectors that can start off one (the address 16 bytes off): not told */
    maps[1].dims[0] = 4096, maps[1].box[0] = 64, maps[1].alignment = 16;
    cp_trace_coverage_of(&p, &k, &c);
    CHECK(!c.excess_known && strstr(c.reason, "map #1's geometry does not tell"));
    maps[1].box[0] = 24, maps[1].alignment = 256;
    /* a bulk copy (UBLKCP) or an opcode not known: the maps cannot judge the copies */
    copy.opcode = "UBLKCP.S.G";
    cp_trace_coverage_of(&p, &k, &c);
    CHECK(!c.excess_known && strstr(c.reason, "no tensor copy"));
    copy.opcode = NULL;
    cp_trace_coverage_of(&p, &k, &c);
    CHECK(!c.excess_known);
    copy.opcode = "UTMALDG.2D";
    k.tmaps = used, k.ntmaps = 1;
    /* a launch whose parameters were not compared (a CUDA graph's, say), or an unseen map */
    k.ntmaps = 1, k.tmap_checked = 11;
    cp_trace_coverage_of(&p, &k, &c);
    CHECK(!c.excess_known);
    k.tmap_checked = 12, k.tmap_unseen = 1;
    cp_trace_coverage_of(&p, &k, &c);
    CHECK(!c.excess_known);
    /* local memory beside: its bytes are not judged */
    k.tmap_unseen = 0, k.d.local_requests = 3;
    cp_trace_coverage_of(&p, &k, &c);
    CHECK(!c.excess_known);
    /* no process (a report of an older library): as before */
    k.d.local_requests = 0;
    cp_trace_coverage_of(NULL, &k, &c);
    CHECK(!c.excess_known);
}

int main(void)
{
    test_fixture();
    test_cases();
    test_tensor_map_geometry();
    return cp_test_finish();
}
