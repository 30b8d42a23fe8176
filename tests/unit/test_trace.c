/* test_trace.c: the report side of coalprobe trace without a GPU: the raw file reader on the
 * hand-made fixtures and on damaged text, what the counts mean (checked against coalprobe's own
 * model: the command a meaning line names must give the same sectors or wavefronts per
 * request), ranks, shares and the gate, the nvdisasm parser on a hand-made listing, demangling
 * and the refusal texts. */
#define _POSIX_C_SOURCE 200809L
#include "cp_test.h"
#include "model/cp_model.h"
#include "trace/cp_trace_launch.h"
#include "inject/cp_trace_raw.h"
#include "trace/cp_trace_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIXTURES CP_TEST_DATA_DIR "/golden/trace"

static const cp_trace_process *find_process(const cp_trace *t, long pid)
{
    for (size_t i = 0; i < t->nprocs; i++)
        if (t->procs[i].pid == pid)
            return &t->procs[i];
    return NULL;
}

static const cp_trace_kernel *find_kernel(const cp_trace_process *p, const char *function)
{
    for (size_t i = 0; p && i < p->nkernels; i++)
        if (strcmp(p->kernels[i].function, function) == 0)
            return &p->kernels[i];
    return NULL;
}

static const cp_trace_instr *find_instr(const cp_trace_kernel *k, uint32_t pc)
{
    for (size_t i = 0; k && i < k->ninstrs; i++)
        if (k->instrs[i].pc == pc)
            return &k->instrs[i];
    return NULL;
}

static cp_trace_options default_options(void)
{
    cp_trace_options o = {5, NULL, 0, NAN, NAN, NAN, CP_TRACE_GROUP_KERNEL, 0.25};
    return o;
}

/* t demangled and analysed into r as a program that exited, with the default options (which r
 * points to: they are static). */
static void analyze_default(cp_trace *t, cp_trace_report *r)
{
    static const cp_trace_run run = {
        .tool_version = "0", .command = "coalprobe trace", .wall_seconds = NAN};
    static cp_trace_options o;
    o = default_options();
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_trace_demangle_all(t, &st) == CP_EXIT_OK);
    CHECK(cp_trace_analyze(t, &run, &o, r, &st) == CP_EXIT_OK);
}

/* ---- the reader ---------------------------------------------------------------------------- */

/* Loads a trace directory that must load. */
static void load_fixture(cp_trace *t, const char *dir)
{
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_trace_load_dir(dir, t, NULL, &st) == CP_EXIT_OK);
}

static void test_load_transpose(void)
{
    cp_trace t;
    load_fixture(&t, FIXTURES "/handmade-transpose");
    CHECK_EQ_U64(t.nprocs, 1);
    const cp_trace_process *p = find_process(&t, 4242);
    CHECK(p != NULL);
    if (!p) {
        cp_trace_free(&t);
        return;
    }
    CHECK_EQ_U64(p->ppid, 4241);
    CHECK(strcmp(p->command, "./transpose --n 1024") == 0);
    CHECK(p->complete && !p->truncated);
    CHECK_EQ_U64(p->flushes, 1);
    CHECK_EQ_U64(p->end_launches, 11);
    CHECK_EQ_U64(p->malformed, 0); /* the x-comment record is a type of a later format: skipped */
    CHECK_EQ_U64(p->ndevices, 1);
    CHECK(p->ndevices && strcmp(p->devices[0].chip, "GH100") == 0);
    CHECK_EQ_U64(p->nkernels, 6);
    CHECK_EQ_U64(p->ndropped, 1);
    CHECK(p->ndropped && p->dropped[0].count == 12);
    CHECK_EQ_U64(p->nnotes, 1);

    const cp_trace_kernel *naive = find_kernel(p, "_Z15transpose_naivePfPKfii");
    CHECK(naive && naive->has_crc && naive->crc == 0x1a2b3c4du && naive->launches == 3);
    CHECK(naive && naive->ninstrs == 3 && !naive->nosource);
    const cp_trace_instr *store = find_instr(naive, 0xc0);
    CHECK(store != NULL);
    if (store) {
        /* its source record came before it */
        CHECK(store->file && strcmp(store->file, "/home/user/proj/transpose.cu") == 0);
        CHECK_EQ_U64(store->line, 13);
        /* as the pc record says: the 4 replay passes of one launch */
        CHECK_EQ_U64(store->counts.value[CP_TRACE_M_GLOBAL_ST], 4 * 32768);
        CHECK_EQ_U64(store->counts.value[CP_TRACE_M_SECTORS], 4 * 32 * 32768);
        /* a version 1 file: every metric of its time, no LDGSTS count */
        CHECK_EQ_U64(store->counts.has, (1u << CP_TRACE_M_LDGSTS) - 1);
    }
    /* two pc records of one instruction add up; a function without line information */
    const cp_trace_kernel *vec = find_kernel(p, "vec_copy");
    CHECK(vec && vec->nosource && vec->launches == 2);
    const cp_trace_instr *load = find_instr(vec, 0x40);
    CHECK(load && load->counts.value[CP_TRACE_M_GLOBAL_LD] == 4000 &&
          load->counts.value[CP_TRACE_M_SECTORS] == 64000 && load->file == NULL);
    /* kernel records add up per function: one per launch */
    CHECK(naive && naive->kc.records == 3 &&
          naive->kc.value[CP_TRACE_K_ST_SECTORS] == 3.0 * 32 * 32768 &&
          naive->kc.has == (1u << (CP_TRACE_K_DURATION + 1)) - 1);
    CHECK(vec && vec->kc.records == 2 && vec->kc.value[CP_TRACE_K_LD_INSTRUCTIONS] == 2000);
    /* kernel records only: a kernel without instructions and without a cubin */
    const cp_trace_kernel *fill = find_kernel(p, "_Z9fill_onesPfi");
    CHECK(fill && fill->ninstrs == 0 && !fill->has_crc && fill->launches == 1 &&
          fill->kc.records == 1);
    const cp_trace_kernel *never = find_kernel(p, "_Z13never_countedv");
    CHECK(never && never->ninstrs == 0 && never->kc.records == 0 && never->launches == 1);
    cp_trace_free(&t);
}

static void test_load_children(void)
{
    cp_trace t;
    load_fixture(&t, FIXTURES "/handmade-children");
    CHECK_EQ_U64(t.nprocs, 2);
    const cp_trace_process *parent = find_process(&t, 5000), *child = find_process(&t, 5001);
    CHECK(parent && parent->complete && !parent->truncated && parent->malformed == 0);
    CHECK(child && !child->complete && child->truncated);
    /* a pc record before the metrics record, a bad CRC, a launch without its count, an empty
     * line; the partial last line is not counted as malformed, it is the truncation */
    CHECK(child && child->malformed == 4);
    const cp_trace_kernel *red = find_kernel(child, "_Z10reduce_rowPKfPfii");
    CHECK(red && red->ninstrs == 1 && red->launches == 1);
    CHECK(red && red->ninstrs && red->instrs[0].line == 31);
    CHECK(t.procs[0].pid == 5000); /* in pid order */
    /* no kernel records (COALPROBE_TRACE_MODE=instructions): the pc records as they are */
    cp_status st;
    cp_status_clear(&st);
    cp_trace_run run = {.tool_version = "0", .command = "coalprobe trace", .wall_seconds = NAN};
    cp_trace_options o = default_options();
    cp_trace_report r;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    red = find_kernel(find_process(&t, 5001), "_Z10reduce_rowPKfPfii");
    CHECK(red && red->from == CP_TRACE_FROM_INSTRUCTIONS && isnan(red->scale));
    CHECK(red && red->ninstrs && red->instrs[0].eff.value[CP_TRACE_M_GLOBAL_LD] == 1024 &&
          red->instrs[0].d.sectors_per_request == 32);
    CHECK(!r.complete);
    CHECK_STR_CONTAINS(r.incomplete_reason, "process 5001");
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* Loads one text as raw-1.tsv. */
static int load_one(cp_trace *t, const char *text)
{
    memset(t, 0, sizeof *t);
    cp_status st;
    cp_status_clear(&st);
    return cp_trace_load_text(t, "raw-1.tsv", text, strlen(text), &st);
}

static void test_load_damaged(void)
{
    cp_trace t;
    CHECK(load_one(&t, "") == CP_EXIT_OK);
    CHECK(t.nprocs == 0 && t.nnotes == 1);
    CHECK_STR_CONTAINS(t.nnotes ? t.notes[0] : NULL, "empty");
    cp_trace_free(&t);
    CHECK(load_one(&t, "hello\tworld\n") == CP_EXIT_OK);
    CHECK(t.nprocs == 0 && t.nnotes == 1);
    CHECK_STR_CONTAINS(t.nnotes ? t.notes[0] : NULL, "not a coalprobe raw trace");
    cp_trace_free(&t);
    /* a newer format is refused by name and version; the older one is read */
    CHECK(load_one(&t, "coalprobe-trace-raw\t3\nprocess\t1\t0\tx\n") == CP_EXIT_OK);
    CHECK(t.nprocs == 0);
    CHECK_STR_CONTAINS(t.nnotes ? t.notes[0] : NULL, "version 3");
    CHECK(t.nunreadable == 1);
    CHECK_STR_CONTAINS(t.nunreadable ? t.unreadable[0] : NULL,
                       "raw-1.tsv: raw format version 3, this coalprobe reads 1 to 2");
    cp_trace_free(&t);
    CHECK(load_one(&t, "coalprobe-trace-raw\t1\nprocess\t1\t0\tx\n") == CP_EXIT_OK);
    CHECK(t.nprocs == 1 && t.nunreadable == 0);
    cp_trace_free(&t);
    /* CRLF line endings and binary files are said to be so, never read as no trace */
    CHECK(load_one(&t, "coalprobe-trace-raw\t1\r\nprocess\t1\t0\tx\r\n") == CP_EXIT_OK);
    CHECK(t.nprocs == 0 && t.nunreadable == 1);
    CHECK_STR_CONTAINS(t.nunreadable ? t.unreadable[0] : NULL, "raw-1.tsv: CRLF line endings");
    cp_trace_free(&t);
    {
        static const char binary[] = "\177ELF\002\001\000\000\001\n";
        memset(&t, 0, sizeof t);
        cp_status st;
        cp_status_clear(&st);
        CHECK(cp_trace_load_text(&t, "raw-1.tsv", binary, sizeof binary - 1, &st) == CP_EXIT_OK);
        CHECK(t.nprocs == 0 && t.nunreadable == 1);
        CHECK_STR_CONTAINS(t.nunreadable ? t.unreadable[0] : NULL,
                           "raw-1.tsv: binary, not text (a NUL byte at offset 6)");
        cp_trace_free(&t);
    }
    CHECK(cp_trace_is_raw_name("raw-4242.tsv") && cp_trace_is_raw_name("cubin-1a2b3c4d.cubin"));
    CHECK(!cp_trace_is_raw_name("raw-.tsv") && !cp_trace_is_raw_name("report.txt") &&
          !cp_trace_is_raw_name("raw-1.tsv.tmp-x"));
    /* the first line cut off */
    CHECK(load_one(&t, "coalprobe-tr") == CP_EXIT_OK);
    CHECK(t.nprocs == 0);
    cp_trace_free(&t);
    /* escapes in text fields; numbers out of range; a NUL ends the text */
    const char text[] = "coalprobe-trace-raw\t1\n"
                        "process\t7\t1\ta\\tb\\\\c\\nd\n"
                        "metrics\tsmsp__sass_inst_executed_op_global_ld\tsomething_new\n"
                        "pc\t0\t0000000a\t0\tk\t0x10\t5\t9\n"
                        "pc\t0\t0000000a\t0\tk\t0x123456789\t1\t1\n"
                        "pc\t0\t0000000a\t0\tk\t0x20\t-\t1\n"
                        "launch\t0\tk\t-3\n"
                        "end\t1\t1\n";
    CHECK(load_one(&t, text) == CP_EXIT_OK);
    CHECK_EQ_U64(t.nprocs, 1);
    if (t.nprocs) {
        const cp_trace_process *p = &t.procs[0];
        CHECK(p->command && strcmp(p->command, "a\tb\\c\nd") == 0);
        CHECK_EQ_U64(p->malformed, 2);
        CHECK(p->complete);
        const cp_trace_kernel *k = find_kernel(p, "k");
        const cp_trace_instr *i = find_instr(k, 0x10);
        CHECK(i && i->counts.value[CP_TRACE_M_GLOBAL_LD] == 5 &&
              i->counts.has == 1u << CP_TRACE_M_GLOBAL_LD);
        i = find_instr(k, 0x20);
        CHECK(i && i->counts.has == 0); /* "-": not recorded */
    }
    cp_trace_free(&t);
    /* a count past 2^64 is no malformed line to skip: the file is refused, with FILE:LINE */
    const char *const too_large[] = {
        "coalprobe-trace-raw\t1\nprocess\t7\t1\tx\nmetrics\tsmsp__sass_inst_executed_op_global_ld\n"
        "pc\t0\t0000000a\t0\tk\t0x10\t18446744073709551616\n",
        "coalprobe-trace-raw\t1\nprocess\t7\t1\tx\nmetrics\tsmsp__sass_inst_executed_op_global_ld\n"
        "launch\t0\tk\t99999999999999999999\n",
    };
    for (size_t c = 0; c < CP_COUNT_OF(too_large); c++) {
        memset(&t, 0, sizeof t);
        cp_status big;
        cp_status_clear(&big);
        CHECK(cp_trace_load_text(&t, "raw-1.tsv", too_large[c], strlen(too_large[c]), &big) ==
              CP_EXIT_RUNTIME);
        CHECK_STR_CONTAINS(big.message, "trace: raw-1.tsv:4: the count ");
        CHECK_STR_CONTAINS(big.message, " does not fit 64 bits");
        CHECK(t.nprocs == 0);
        cp_trace_free(&t);
    }
    CHECK_EQ_U64(load_one(&t, "coalprobe-trace-raw\t1\nlaunch\t0\tk\t18446744073709551615\n"),
                 CP_EXIT_OK); /* 2^64 - 1 fits */
    cp_trace_free(&t);
    char with_nul[] = "coalprobe-trace-raw\t1\nprocess\t7\t1\tx\nend\t0\t0\n";
    with_nul[30] = '\0'; /* inside the process line */
    memset(&t, 0, sizeof t);
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_trace_load_text(&t, "raw-2.tsv", with_nul, sizeof with_nul - 1, &st) == CP_EXIT_OK);
    CHECK(t.nprocs == 1 && t.procs[0].truncated && !t.procs[0].complete);
    cp_trace_free(&t);
}

/* ---- meaning, checked against the model ------------------------------------------------------ */

static int parse_int_after(const char *s, const char *key, long *out)
{
    const char *at = s ? strstr(s, key) : NULL;
    if (!at)
        return 0;
    *out = strtol(at + strlen(key), NULL, 10);
    return 1;
}

/* The model's counts of one request of 32 lanes of w bytes, lane l at element l*stride+offset. */
static cp_counts model_request(uint32_t w, uint64_t stride, uint64_t offset, int shared)
{
    cp_warp_lanes lanes;
    memset(&lanes, 0, sizeof lanes);
    lanes.active_mask = 0xFFFFFFFFu;
    lanes.lane_bytes = w;
    for (unsigned l = 0; l < 32; l++)
        lanes.addr[l] = ((uint64_t)l * stride + offset) * w;
    cp_counts c;
    memset(&c, 0, sizeof c);
    if (shared)
        cp_model_count_shared_request(&lanes, &c);
    else
        cp_model_count_request(&lanes, &c);
    return c;
}

/* n requests of the model's counts c as trace counts. */
static cp_trace_derived derived_from(const cp_counts *c, uint64_t n, int shared)
{
    cp_trace_counts t;
    memset(&t, 0, sizeof t);
    t.has = (1u << CP_TRACE_NMETRICS) - 1;
    if (shared) {
        t.value[CP_TRACE_M_SHARED_LD] = n;
        t.value[CP_TRACE_M_WAVEFRONTS] = n * c->wavefronts;
        t.value[CP_TRACE_M_WAVEFRONTS_IDEAL] = n * c->ideal_wavefronts;
    } else {
        t.value[CP_TRACE_M_GLOBAL_LD] = n;
        t.value[CP_TRACE_M_SECTORS] = n * c->sectors;
        t.value[CP_TRACE_M_SECTORS_IDEAL] = n * c->ideal_sectors;
    }
    cp_trace_derived d;
    cp_trace_derive(&t, &d);
    return d;
}

/* Every global stride and offset of 4-, 8- and 16-byte lanes: the command the meaning names
 * gives the same sectors per request in the model (or, "and above", at most this stride). */
static void test_meaning_global_against_model(void)
{
    static const uint32_t widths[] = {4, 8, 16};
    int named = 0, checked = 0;
    for (size_t wi = 0; wi < 3; wi++)
        for (uint64_t stride = 1; stride <= 40; stride++)
            for (uint64_t offset = 0; offset <= 1; offset++) {
                uint32_t w = widths[wi];
                cp_counts c = model_request(w, stride, offset, 0);
                cp_trace_derived d = derived_from(&c, 100, 0);
                char m[512];
                cp_trace_meaning(&d, m, sizeof m);
                long width = 4, k = 0, off = 0;
                parse_int_after(m, "--width ", &width);
                CHECK(width == (long)w || !strstr(m, "coalprobe"));
                int above = strstr(m, "` and above") != NULL;
                int between = strstr(m, "between") != NULL;
                if (parse_int_after(m, "--offset ", &off)) {
                    cp_counts e = model_request(w, 1, (uint64_t)off, 0);
                    CHECK_EQ_U64(e.sectors, c.sectors);
                    named++;
                } else if (!between && parse_int_after(m, "--stride ", &k)) {
                    cp_counts e = model_request(w, (uint64_t)k, 0, 0);
                    CHECK_EQ_U64(e.sectors, c.sectors);
                    if (above) {
                        CHECK(c.sectors == 32 && (uint64_t)k <= stride);
                    } else if (e.sectors != c.sectors) {
                        fprintf(stderr, "  width %u stride %llu offset %llu: %s\n", w,
                                (unsigned long long)stride, (unsigned long long)offset, m);
                    }
                    named++;
                }
                checked++;
                if (stride == 1 && offset == 0)
                    CHECK_STR_CONTAINS(m, "coalesced");
            }
    CHECK(checked == 240);
    CHECK(named > 150); /* most patterns have a command that behaves the same */
}

/* Shared memory: the smem family's strides give the N-way conflict the meaning names. */
static void test_meaning_shared_against_model(void)
{
    static const uint32_t widths[] = {4, 8, 16};
    for (size_t wi = 0; wi < 3; wi++)
        for (uint64_t stride = 1; stride <= 33; stride++) {
            uint32_t w = widths[wi];
            cp_counts c = model_request(w, stride, 0, 1);
            cp_trace_derived d = derived_from(&c, 64, 1);
            char m[512];
            cp_trace_meaning(&d, m, sizeof m);
            long k = 0, width = 4;
            if (c.bank_conflicts == 0) {
                CHECK_STR_CONTAINS(m, "no bank conflict");
                continue;
            }
            long ways = (long)(c.wavefronts / c.ideal_wavefronts);
            char expect[32];
            snprintf(expect, sizeof expect, "%ld-way bank conflict", ways);
            if (c.wavefronts % c.ideal_wavefronts == 0)
                CHECK_STR_CONTAINS(m, expect);
            parse_int_after(m, "--width ", &width);
            if (parse_int_after(m, "smem --stride ", &k) || parse_int_after(m, "--stride ", &k)) {
                CHECK(width == (long)w);
                cp_counts e = model_request(w, (uint64_t)k, 0, 1);
                CHECK_EQ_U64(e.wavefronts, c.wavefronts);
            }
        }
}

static void test_meaning_cases(void)
{
    char m[512];
    cp_trace_derived d;
    cp_trace_counts c;
    memset(&c, 0, sizeof c);
    c.has = (1u << CP_TRACE_NMETRICS) - 1;
    c.value[CP_TRACE_M_GLOBAL_LD] = 10;
    c.value[CP_TRACE_M_SECTORS] = 320;
    c.value[CP_TRACE_M_SECTORS_IDEAL] = 40;
    cp_trace_derive(&c, &d);
    cp_trace_meaning(&d, m, sizeof m);
    CHECK(strcmp(m, "32 sectors per request where 4 would do: each lane in its own sector, like "
                    "`coalprobe --stride 8` and above") == 0);
    CHECK_NEAR(d.excess_bytes, 280 * 32, 0);
    CHECK_NEAR(d.excess_pct, 87.5, 1e-9);
    /* partial warps: an ideal that is no lane width */
    c.value[CP_TRACE_M_SECTORS_IDEAL] = 25;
    cp_trace_derive(&c, &d);
    cp_trace_meaning(&d, m, sizeof m);
    CHECK_STR_CONTAINS(m, "32 sectors per request where 2.50 would do: 92% of the sectors");
    /* between two strides */
    c.value[CP_TRACE_M_SECTORS] = 65;
    c.value[CP_TRACE_M_SECTORS_IDEAL] = 40;
    cp_trace_derive(&c, &d);
    cp_trace_meaning(&d, m, sizeof m);
    CHECK_STR_CONTAINS(m, "6.50 sectors per request where 4 would do (1.6x): between `coalprobe "
                          "--stride 1` and `--stride 2`");
    /* shared and global at once (LDGSTS), and a non-integer conflict */
    c.value[CP_TRACE_M_SECTORS] = 40;
    c.value[CP_TRACE_M_SHARED_ST] = 10;
    c.value[CP_TRACE_M_WAVEFRONTS] = 25;
    c.value[CP_TRACE_M_WAVEFRONTS_IDEAL] = 10;
    cp_trace_derive(&c, &d);
    cp_trace_meaning(&d, m, sizeof m);
    CHECK_STR_CONTAINS(m, "coalesced: 4 sectors per request, the ideal");
    CHECK_STR_CONTAINS(m, "; bank conflicts: 2.50 wavefronts per request where 1 would do (2.5x)");
    /* 3-way: no power of two, so no smem stride is named */
    c.value[CP_TRACE_M_WAVEFRONTS] = 30;
    cp_trace_derive(&c, &d);
    cp_trace_meaning(&d, m, sizeof m);
    CHECK_STR_CONTAINS(m, "3-way bank conflict: 3 wavefronts per request where 1 would do");
    CHECK(strstr(m, "smem") == NULL);
    /* a missing metric: no ratio, and said so */
    c.has &= ~(1u << CP_TRACE_M_SECTORS_IDEAL);
    c.value[CP_TRACE_M_SHARED_ST] = 0;
    cp_trace_derive(&c, &d);
    CHECK(isnan(d.excess_bytes) && isnan(d.ideal_sectors_per_request));
    cp_trace_meaning(&d, m, sizeof m);
    CHECK_STR_CONTAINS(m, "without sector counts");
    /* nothing executed */
    memset(&c, 0, sizeof c);
    c.has = (1u << CP_TRACE_NMETRICS) - 1;
    cp_trace_derive(&c, &d);
    cp_trace_meaning(&d, m, sizeof m);
    CHECK(m[0] == '\0');
}

/* ---- the analysis --------------------------------------------------------------------------- */

static void test_analyze_transpose(void)
{
    cp_trace t;
    load_fixture(&t, FIXTURES "/handmade-transpose");
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_trace_demangle_all(&t, &st) == CP_EXIT_OK);
    cp_trace_run run = {.tool_version = "0", .command = "coalprobe trace", .wall_seconds = NAN};
    cp_trace_options o = default_options();
    cp_trace_report r;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK(r.counted && r.complete);
    CHECK_EQ_U64(r.nselected, 6);
    CHECK_EQ_U64(r.ncounted, 5);
    CHECK_EQ_U64(r.nkernel_only, 2);
    CHECK_EQ_U64(r.nkernels_ran, 2);
    CHECK_EQ_U64(r.ninstrs, 11);
    CHECK_EQ_U64(r.nexecuted, 8);
    /* the pc records count 4 replay passes of one launch: scaled to the 3 launches (naive) and
     * 2 launches (vec_copy) of the kernel records */
    const cp_trace_process *tp = &t.procs[0];
    const cp_trace_kernel *naive = find_kernel(tp, "_Z15transpose_naivePfPKfii");
    const cp_trace_kernel *vec = find_kernel(tp, "vec_copy");
    const cp_trace_kernel *off = find_kernel(tp, "_Z6offsetPKfPfi");
    const cp_trace_kernel *fill = find_kernel(tp, "_Z9fill_onesPfi");
    const cp_trace_kernel *never = find_kernel(tp, "_Z13never_countedv");
    CHECK(naive && naive->from == CP_TRACE_FROM_INSTRUCTIONS && naive->scale == 0.75);
    CHECK(vec && vec->from == CP_TRACE_FROM_INSTRUCTIONS && vec->scale == 0.5);
    const cp_trace_instr *st_instr = find_instr(naive, 0xc0);
    CHECK(st_instr && st_instr->eff.value[CP_TRACE_M_GLOBAL_ST] == 98304 &&
          st_instr->eff.value[CP_TRACE_M_SECTORS] == 3145728 &&
          st_instr->d.sectors_per_request == 32);
    CHECK(naive && naive->d.requests == 2 * 98304);
    /* launched once: zeros in its pc records, so counted as a whole from its kernel records,
     * its ideal the bytes requested in sectors */
    CHECK(off && off->from == CP_TRACE_FROM_KERNEL && off->instructions_zero);
    CHECK(off && off->d.requests == 65536 && off->d.sectors == 5 * 32768 + 4 * 32768 &&
          off->d.ideal_sectors == 8 * 32768 && off->d.excess_bytes == 32768.0 * 32);
    CHECK(off && off->ninstrs == 2 && off->instrs[0].rank == 0 && isnan(off->instrs[0].d.requests));
    CHECK(fill && fill->from == CP_TRACE_FROM_KERNEL && !fill->instructions_zero &&
          fill->d.excess_bytes == 0);
    CHECK(never && never->from == CP_TRACE_FROM_NONE);
    /* the program's excess: (3145728 - 393216) + 32768 + 16000 sectors, 32 bytes each */
    CHECK_NEAR(r.program.excess_bytes, (2752512.0 + 32768 + 16000) * 32, 0);
    CHECK_NEAR(r.program.bank_conflicts, 3145728 - 98304, 0);
    /* rank 1: the naive transpose's store, with its share */
    CHECK(r.ninstrs && r.instrs[0]->pc == 0xc0 && r.instrs[0]->rank == 1);
    CHECK_NEAR(r.instrs[0]->excess_share, 2752512.0 / (2752512.0 + 32768 + 16000), 1e-12);
    /* the shares of the instructions and of the kernel counted as a whole make the program */
    double shares = off ? off->d.excess_bytes / r.program.excess_bytes : 0;
    for (size_t i = 0; i < r.ninstrs; i++)
        shares += isfinite(r.instrs[i]->excess_share) ? r.instrs[i]->excess_share : 0;
    CHECK_NEAR(shares, 1, 1e-12);
    /* ranks follow excess bytes, then bank conflicts; the never-executed instruction has none */
    for (size_t i = 1; i < r.ninstrs; i++)
        CHECK(r.instrs[i]->rank == 0 ||
              r.instrs[i - 1]->d.excess_bytes >= r.instrs[i]->d.excess_bytes ||
              isnan(r.instrs[i]->d.excess_bytes));
    for (size_t i = r.nexecuted; i < r.ninstrs; i++)
        CHECK(r.instrs[i]->rank == 0);
    /* kernels by excess, the uncounted one last */
    CHECK(strcmp(tp->kernels[0].name, "transpose_naive(float*, float const*, int, int)") == 0);
    CHECK(tp->kernels[5].from == CP_TRACE_FROM_NONE);
    CHECK(!r.gate_checked && r.nviolations == 0);
    cp_trace_report_free(&r);

    /* the gate: 8 sectors per request fails the naive store (32) and vec_copy's load (16) */
    o.max_sectors_per_request = 8;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK(r.gate_checked);
    CHECK_EQ_U64(r.nviolations, 2);
    CHECK(r.nviolations == 2 && r.violations[0].instr->pc == 0xc0 &&
          strcmp(r.violations[0].what, "sectors_per_request") == 0 &&
          r.violations[1].instr->pc == 0x40);
    cp_trace_report_free(&r);
    /* ... and instructions of fewer than 10000 requests are not judged */
    o.min_requests = 10000;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK_EQ_U64(r.nviolations, 1);
    CHECK_EQ_U64(r.gate_judged, 8); /* 6 instructions, 2 kernels counted as a whole */
    cp_trace_report_free(&r);
    /* a kernel counted as a whole is judged as a whole: the misaligned copy, 4.5 per request */
    o.max_sectors_per_request = 4.25;
    o.min_requests = 0;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    int whole = 0;
    for (size_t i = 0; i < r.nviolations; i++)
        whole += r.violations[i].instr == NULL && r.violations[i].kernel == off &&
                 r.violations[i].value == 4.5;
    CHECK(whole == 1 && off && off->gate_failed);
    cp_trace_report_free(&r);
    /* excess pct: 87.5% (store) and 96.9% (the shared load's conflicts) over 50%; vec_copy's
     * load is exactly 50%, which passes */
    o = default_options();
    o.max_excess_pct = 50;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK_EQ_U64(r.nviolations, 2);
    int excess = 0, conflict = 0;
    for (size_t i = 0; i < r.nviolations; i++) {
        excess += strcmp(r.violations[i].what, "excess_pct") == 0 && r.violations[i].value == 87.5;
        conflict += strcmp(r.violations[i].what, "conflict_pct") == 0 &&
                    fabs(r.violations[i].value - 100.0 * 31 / 32) < 1e-9;
    }
    CHECK(excess == 1 && conflict == 1);
    cp_trace_report_free(&r);
    /* --kernel selects by the demangled name; shares stay shares of the whole program */
    o = default_options();
    o.kernel_regex = "^(vec_copy|offset\\()";
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK_EQ_U64(r.nselected, 2);
    CHECK_EQ_U64(r.ninstrs, 4);
    CHECK(r.ninstrs && r.instrs[0]->rank == 1 && r.instrs[0]->pc == 0x40 &&
          r.instrs[0]->excess_share < 0.006);
    cp_trace_report_free(&r);
    o.kernel_regex = "(";
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "--kernel");
    cp_trace_free(&t);
}

/* The lean metric set (one pass a launch): a kernel without pc records has sectors and
 * instructions; its requests are its instructions, its ideal sectors and wavefronts unknown.
 * The time records are read as they are. */
/* Records with fewer fields than their type needs are malformed, never read past their end
 * (fuzz_trace_raw found a "time" record with none that crashed the loader). */
static void test_load_short_records(void)
{
    static const char *const types[] = {"process", "device",  "counting", "metrics", "pc", "kernel",
                                        "launch",  "dropped", "note",     "time",    "end"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "coalprobe-trace-raw\t1\nprocess\t7\t1\tx\n%s\n%s\tx\n",
                 types[i], types[i]);
        cp_trace t;
        CHECK(load_one(&t, text) == CP_EXIT_OK);
        cp_trace_free(&t);
    }
    cp_trace t;
    CHECK(load_one(&t, "coalprobe-trace-raw\t1\nprocess\t7\t1\tx\ntime\ntime\tx\nend\t0\t0\n") ==
          CP_EXIT_OK);
    CHECK_EQ_U64(t.nprocs, 1);
    if (t.nprocs)
        CHECK(t.procs[0].malformed == 2 && t.procs[0].ntimes == 0 && t.procs[0].complete);
    cp_trace_free(&t);
}

static void test_load_lean_and_times(void)
{
    const char text[] =
        "coalprobe-trace-raw\t1\n"
        "process\t9\t1\tlean\n"
        "kernel_metrics\tl1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
        "\tl1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
        "\tl1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
        "\tl1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
        "\tsmsp__sass_data_bytes_mem_global_op_ld.sum\tsmsp__sass_data_bytes_mem_global_op_st.sum"
        "\tsmsp__inst_executed_op_shared_ld.sum\tsmsp__inst_executed_op_shared_st.sum"
        "\tl1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
        "\tl1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
        "\tl1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
        "\tl1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
        "\tsmsp__inst_executed_op_global_ld.sum\tsmsp__inst_executed_op_global_st.sum"
        "\tgpu__time_duration.sum\n"
        "device\t0\tGH100\tNVIDIA H100\t9.0\n"
        "counting\t0\tevery_launch\n"
        "counting\t0\tsometimes\n"
        "metrics\tsmsp__sass_inst_executed_op_global_ld\tsmsp__sass_sectors_mem_global\n"
        "pc\t0\t0000000b\t0\ttwice\t0x40\t10\t40\n"
        "kernel\t0\ttwice\t-\t-\t40\t0\t-\t-\t0\t0\t-\t-\t-\t-\t15\t0\t100\n"
        "kernel\t0\tonce\t-\t-\t1024\t128\t-\t-\t0\t0\t-\t-\t-\t-\t32\t32\t5000\n"
        "launch\t0\tonce\t1\n"
        "time\tlaunch_calls\t0.250000\t9\n"
        "time\tinjected\t1.5\t1\n"
        "time\tbad\t-1\t1\n"
        "end\t1\t1\n";
    cp_trace t;
    CHECK(load_one(&t, text) == CP_EXIT_OK);
    CHECK_EQ_U64(t.nprocs, 1);
    if (t.nprocs) {
        const cp_trace_process *p = &t.procs[0];
        CHECK_EQ_U64(p->ntimes, 2);
        CHECK_EQ_U64(p->malformed, 2); /* the negative time, the unknown way of counting */
        CHECK(p->ndevices == 1 && p->devices[0].every_launch == 1);
        CHECK(p->ntimes == 2 && strcmp(p->times[0].phase, "launch_calls") == 0 &&
              p->times[0].seconds == 0.25 && p->times[0].count == 9 &&
              strcmp(p->times[1].phase, "injected") == 0 && p->times[1].seconds == 1.5);
    }
    cp_trace_report r;
    analyze_default(&t, &r);
    const cp_trace_kernel *k = t.nprocs ? find_kernel(&t.procs[0], "once") : NULL;
    CHECK(k && k->from == CP_TRACE_FROM_KERNEL);
    if (k) {
        const cp_trace_counts *c = &k->totals;
        CHECK(c->value[CP_TRACE_M_GLOBAL_LD] == 32 && c->value[CP_TRACE_M_GLOBAL_ST] == 32);
        CHECK(c->value[CP_TRACE_M_SECTORS] == 1152);
        CHECK(!(c->has & (1u << CP_TRACE_M_SECTORS_IDEAL)));
        CHECK(!(c->has & (1u << CP_TRACE_M_WAVEFRONTS)));
        CHECK(!(c->has & (1u << CP_TRACE_M_WAVEFRONTS_IDEAL)));
    }
    /* counted at every launch (no replay): the pc records as they are, not scaled to the 15
     * instructions of its kernel records */
    const cp_trace_kernel *tw = t.nprocs ? find_kernel(&t.procs[0], "twice") : NULL;
    CHECK(tw && tw->every_launch && tw->from == CP_TRACE_FROM_INSTRUCTIONS && isnan(tw->scale));
    CHECK(tw && tw->ninstrs == 1 && tw->instrs[0].eff.value[CP_TRACE_M_GLOBAL_LD] == 10 &&
          tw->instrs[0].eff.value[CP_TRACE_M_SECTORS] == 40);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

static void test_analyze_why_no_counts(void)
{
    cp_trace t;
    cp_status st;
    cp_status_clear(&st);
    cp_trace_run run = {.tool_version = "0", .command = "coalprobe trace", .wall_seconds = NAN};
    cp_trace_options o = default_options();
    cp_trace_report r;
    load_fixture(&t, FIXTURES "/no-raw-files");
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK(!r.counted);
    CHECK_STR_CONTAINS(r.no_counts_reason, "no process initialised CUDA");
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    load_fixture(&t, FIXTURES "/handmade-refused");
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK(!r.counted);
    CHECK_STR_CONTAINS(r.no_counts_reason, "insufficient privileges");
    CHECK_STR_CONTAINS(r.no_counts_fix, "CAP_SYS_ADMIN");
    CHECK(strstr(r.no_counts_fix, "--no-counters") == NULL);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* a killed program makes the trace incomplete, whatever the files say */
    load_fixture(&t, FIXTURES "/handmade-transpose");
    run.signaled = 1;
    run.term_signal = 9;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK(!r.complete);
    CHECK_STR_CONTAINS(r.incomplete_reason, "SIGKILL");
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    CHECK(cp_trace_load_dir(CP_TEST_DATA_DIR "/no/such/dir", &t, NULL, &st) == CP_EXIT_RUNTIME);
}

/* ---- nvdisasm, names, refusals ----------------------------------------------------------------
 */

/* The symbols nvdisasm -fun takes, read from the H100 fixture's real cubin (symbols 16-18 are
 * the sample's three kernels, checked with readelf -s), and refusals of what is not a cubin. */
static void test_sass_function_list(void)
{
    size_t size = 0;
    unsigned char *elf =
        (unsigned char *)cp_text_read_file(FIXTURES "/h100-sample/cubin-7dd1caeb.cubin", &size);
    CHECK(elf != NULL);
    if (!elf)
        return;
    const char *three[] = {"_Z21sample_copy_coalescedPKfPfi", "_Z22sample_shared_conflictPKfPfi",
                           "_Z19sample_copy_stridedPKfPfii"};
    char list[64];
    CHECK(cp_trace_sass_function_list(elf, size, three, 3, list, sizeof list) == 0);
    CHECK_STR_CONTAINS(list, "16,17,18");
    CHECK(cp_trace_sass_function_list(elf, size, three + 2, 1, list, sizeof list) == 0);
    CHECK(strcmp(list, "17") == 0);
    const char *missing[] = {"_Z21sample_copy_coalescedPKfPfi", "no_such_kernel"};
    CHECK(cp_trace_sass_function_list(elf, size, missing, 2, list, sizeof list) == -1);
    CHECK(cp_trace_sass_function_list(elf, size, three, 3, list, 4) == -1); /* does not fit */
    CHECK(cp_trace_sass_function_list(elf, size, three, 0, list, sizeof list) == -1);
    /* every cut-off of the file is refused or answered without reading past it (ASan) */
    for (size_t cut = 0; cut < size; cut += 97)
        (void)cp_trace_sass_function_list(elf, cut, three, 3, list, sizeof list);
    CHECK(cp_trace_sass_function_list(elf, 63, three, 3, list, sizeof list) == -1);
    elf[4] = 1; /* 32-bit */
    CHECK(cp_trace_sass_function_list(elf, size, three, 3, list, sizeof list) == -1);
    free(elf);
    const unsigned char text[] = "not an ELF file at all, but long enough to be read as one ....";
    CHECK(cp_trace_sass_function_list(text, sizeof text, three, 3, list, sizeof list) == -1);
}

static void test_sass_parse(void)
{
    FILE *f = fopen(CP_TEST_DATA_DIR "/trace/nvdisasm_handmade.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char *text = cp_test_read_stream(f);
    fclose(f);
    cp_trace_sass_line *lines = NULL;
    size_t n = 0;
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_trace_sass_parse(text, &lines, &n, &st) == CP_EXIT_OK);
    free(text);
    /* 15 instructions of the transpose, 6 of vec_copy, 4 of gemm_tma and 3 of copy_narrow (the
     * handmade-tmaps fixture's UTMALDG); the .zero of the constant bank is not in a .text
     * section */
    CHECK_EQ_U64(n, 28);
    int ldg = 0, stg = 0, pred = 0, brace = 0, sts = 0;
    for (size_t i = 0; i < n; i++) {
        int naive = strcmp(lines[i].function, "_Z15transpose_naivePfPKfii") == 0;
        ldg += naive && lines[i].pc == 0x90 && strcmp(lines[i].opcode, "LDG.E") == 0;
        stg += naive && lines[i].pc == 0xc0 && strcmp(lines[i].opcode, "STG.E") == 0;
        pred += naive && lines[i].pc == 0x40 && strcmp(lines[i].opcode, "EXIT") == 0;
        pred += naive && lines[i].pc == 0xb0 && strcmp(lines[i].opcode, "BRA") == 0;
        brace += strcmp(lines[i].function, "vec_copy") == 0 && lines[i].pc == 0x70 &&
                 strcmp(lines[i].opcode, "LDS.128") == 0;
        sts += strcmp(lines[i].function, "vec_copy") == 0 && lines[i].pc == 0x80 &&
               strcmp(lines[i].opcode, "STS") == 0;
    }
    CHECK(ldg == 1 && stg == 1 && pred == 2 && brace == 1 && sts == 1);
    /* the lines of one function share its name, held once (the first line owns it) */
    size_t owners = 0, shared = 0;
    for (size_t i = 0; i < n; i++) {
        owners += lines[i].owner != 0;
        shared += i > 0 && lines[i].function == lines[i - 1].function;
    }
    CHECK_EQ_U64(owners, 4);
    CHECK_EQ_U64(shared, n - 4);
    cp_trace_sass_free(lines, n);
    /* a section without instructions, then one with: each name freed once (ASan checks) */
    CHECK(cp_trace_sass_parse("\t.section\t.text.a,\"ax\"\n\t.section\t.text.b,\"ax\"\n"
                              "/*0010*/ LDG.E R1 ;\n/*0020*/ STG.E R1 ;\n",
                              &lines, &n, &st) == CP_EXIT_OK);
    CHECK(n == 2 && lines[0].owner && !lines[1].owner && lines[0].function == lines[1].function &&
          strcmp(lines[1].function, "b") == 0);
    cp_trace_sass_free(lines, n);
    CHECK(cp_trace_sass_parse("", &lines, &n, &st) == CP_EXIT_OK && n == 0);
    cp_trace_sass_free(lines, n);
    /* instruction lines outside a .text section, and a broken offset, are ignored */
    CHECK(cp_trace_sass_parse("/*0010*/ LDG.E R1 ;\n\t.section\t.text.f,\"ax\"\n/*00zz*/ X ;\n"
                              "/*0020*/ @!PT STG.E.128 [R2], R4 ;",
                              &lines, &n, &st) == CP_EXIT_OK);
    CHECK(n == 1 && lines[0].pc == 0x20 && strcmp(lines[0].opcode, "STG.E.128") == 0 &&
          strcmp(lines[0].function, "f") == 0);
    cp_trace_sass_free(lines, n);
}

static void test_names_and_texts(void)
{
    char *d = cp_trace_demangle("_Z15transpose_naivePfPKfii");
    CHECK(d && strcmp(d, "transpose_naive(float*, float const*, int, int)") == 0);
    free(d);
    CHECK(cp_trace_demangle("triton_poi_fused_add_0") == NULL);
    CHECK(cp_trace_demangle("_Znot a name") == NULL);
    const char *cause;
    char fix[512];
    cp_trace_refusal_text(35, &cause, fix, sizeof fix); /* INSUFFICIENT_PRIVILEGES */
    CHECK_STR_CONTAINS(cause, "privileges");
    CHECK(strstr(fix, "no-counters") == NULL && fix[strlen(fix) - 1] == ')');
    cp_trace_refusal_text(27, &cause, fix, sizeof fix); /* NOT_SUPPORTED: only --no-counters */
    CHECK(strcmp(fix, "trace the program on a GPU that allows profiling") == 0);
    cp_trace_refusal_text(39, &cause, fix, sizeof fix); /* another profiler attached */
    CHECK_STR_CONTAINS(cause, "another profiler");
    CHECK(strstr(fix, "no-counters") == NULL);
    cp_trace_refusal_text(999999, &cause, fix, sizeof fix);
    CHECK_STR_CONTAINS(cause, "CUPTI could not");
    char b[32];
    cp_trace_format_bytes(b, sizeof b, 88080384);
    CHECK(strcmp(b, "88.1 MB") == 0);
    cp_trace_format_bytes(b, sizeof b, 512);
    CHECK(strcmp(b, "512 B") == 0);
    cp_trace_format_bytes(b, sizeof b, 999999);
    CHECK(strcmp(b, "1.00 MB") == 0);
    cp_trace_format_bytes(b, sizeof b, NAN);
    CHECK(strcmp(b, "-") == 0);
    CHECK(cp_trace_metric_index("smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal") ==
          CP_TRACE_M_WAVEFRONTS_IDEAL);
    CHECK(cp_trace_metric_index("smsp__sass_inst_executed_op_ldgsts") == CP_TRACE_M_LDGSTS);
    CHECK(cp_trace_metric_index("nope") == -1);
}

/* cp.async (format 2): LDGSTS counted as global requests of its own kind, its fill wavefronts
 * kept out of the shared side and its bank conflicts; the sums hold: a kernel's totals are the
 * sum of its instructions, the program's the sum of its kernels. */
static void test_analyze_ldgsts(void)
{
    cp_trace t;
    load_fixture(&t, FIXTURES "/handmade-ldgsts");
    cp_trace_report r;
    analyze_default(&t, &r);
    const cp_trace_process *tp = &t.procs[0];
    const cp_trace_kernel *strided = find_kernel(tp, "_Z16cp_async_stridedPKfPfii");
    const cp_trace_kernel *copy = find_kernel(tp, "_Z13cp_async_copyPKfPfi");
    CHECK(strided && copy);
    if (!strided || !copy)
        return;
    const double w = 4096;
    const cp_trace_instr *cpa = find_instr(strided, 0x60);
    CHECK(cpa && strcmp(cp_trace_kind_name(cpa), "ldgsts") == 0 && cpa->rank == 1);
    CHECK(cpa && strcmp(cp_trace_space_name(cpa), "global_to_shared") == 0 &&
          strcmp(cp_trace_op_name(cpa), "load") == 0);
    CHECK(cpa && cpa->d.requests == w && cpa->d.ldgsts_requests == w &&
          cpa->d.sectors_per_request == 32 && cpa->d.ideal_sectors_per_request == 4);
    CHECK(cpa && cpa->d.fill_wavefronts_per_request == 32 &&
          cpa->d.ideal_fill_wavefronts_per_request == 1 && isnan(cpa->d.wavefronts));
    char meaning[700];
    cp_trace_meaning(&cpa->d, meaning, sizeof meaning);
    CHECK_STR_CONTAINS(meaning, "cp.async: 32 sectors per request where 4 would do");
    CHECK_STR_CONTAINS(meaning, "not a bank conflict");
    /* the kernel: LDGSTS and STG are its global requests, the LDS its only shared ones */
    CHECK(strided->d.requests == 2 * w && strided->d.ldgsts_requests == w);
    CHECK(strided->d.shared_requests == w && strided->d.wavefronts == w &&
          strided->d.bank_conflicts == 0 && strided->d.fill_wavefronts == 32 * w);
    CHECK(copy->d.sectors_per_request == 16 && copy->d.excess_bytes == 0);
    /* the sums */
    for (size_t k = 0; k < tp->nkernels; k++) {
        const cp_trace_kernel *kk = &tp->kernels[k];
        double req = 0, sec = 0, fill = 0;
        for (size_t i = 0; i < kk->ninstrs; i++) {
            req += kk->instrs[i].d.requests > 0 ? kk->instrs[i].d.requests : 0;
            sec += kk->instrs[i].d.sectors > 0 ? kk->instrs[i].d.sectors : 0;
            fill += kk->instrs[i].d.fill_wavefronts > 0 ? kk->instrs[i].d.fill_wavefronts : 0;
        }
        CHECK(kk->d.requests == req && kk->d.sectors == sec && kk->d.fill_wavefronts == fill);
    }
    CHECK(r.program.requests == strided->d.requests + copy->d.requests);
    CHECK(r.program.ldgsts_requests == 2 * w && r.program.bank_conflicts == 0);
    CHECK(r.program.excess_bytes == strided->d.excess_bytes);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* A graph run (format 2): launch counts and kernel records of a graph's kernel filed under its
 * function; the records of a graph whose kernels run on parallel branches unmatched, added up by
 * reason, in no kernel. */
/* Two cubins with a function of one name (torch.compile's Triton kernels): the launch, kernel
 * and launches_seen records that name a cubin go to that cubin's kernel; a launch record that
 * names none goes, as before, to the first kernel of the name. */
static void test_load_same_name_two_cubins(void)
{
    const char text[] =
        "coalprobe-trace-raw\t1\n"
        "process\t9\t1\tcompiled\n"
        "kernel_metrics\tsmsp__inst_executed_op_global_ld.sum\tgpu__time_duration.sum\n"
        "device\t0\tGH100\tNVIDIA H100\t9.0\n"
        "counting\t0\tevery_launch\n"
        "metrics\tsmsp__sass_inst_executed_op_global_ld\tsmsp__sass_sectors_mem_global\n"
        "pc\t0\t7c98d035\t0\ttriton_poi\t0x40\t30\t120\n"
        "pc\t0\ta217f5c1\t0\ttriton_poi\t0x80\t8\t32\n"
        "kernel_cubin\ta217f5c1\n"
        "kernel\t0\ttriton_poi\t4\t100\n"
        "kernel_cubin\t7c98d035\n"
        "kernel\t0\ttriton_poi\t10\t200\n"
        "kernel_cubin\t7c98d035\n"
        "kernel\t0\ttriton_poi\t10\t200\n"
        "launch\t0\ttriton_poi\t3\t7c98d035\n"
        "launch\t0\ttriton_poi\t2\ta217f5c1\n"
        "launches_seen\t0\ttriton_poi\t3\t3\t2\t7c98d035\n"
        "launches_seen\t0\ttriton_poi\t2\t2\t1\ta217f5c1\n"
        "end\t1\t1\n";
    cp_trace t;
    CHECK(load_one(&t, text) == CP_EXIT_OK);
    CHECK(t.nprocs == 1);
    if (t.nprocs != 1)
        return;
    const cp_trace_process *p = &t.procs[0];
    CHECK_EQ_U64(p->malformed, 0);
    CHECK_EQ_U64(p->nkernels, 2);
    const cp_trace_kernel *a = NULL, *b = NULL;
    for (size_t i = 0; i < p->nkernels; i++) {
        if (p->kernels[i].has_crc && p->kernels[i].crc == 0x7c98d035u)
            a = &p->kernels[i];
        if (p->kernels[i].has_crc && p->kernels[i].crc == 0xa217f5c1u)
            b = &p->kernels[i];
    }
    CHECK(a && a->launches == 3 && a->kc.records == 2 && a->has_seen && a->launches_seen == 3);
    CHECK(b && b->launches == 2 && b->kc.records == 1 && b->has_seen && b->launches_seen == 2);
    cp_trace_free(&t);
    /* a kernel_cubin record not right before a kernel record names nothing; a bad CRC is
     * malformed; so is a launch record with a sixth field */
    const char odd[] = "coalprobe-trace-raw\t1\n"
                       "process\t9\t1\tcompiled\n"
                       "kernel_metrics\tgpu__time_duration.sum\n"
                       "kernel_cubin\ta217f5c1\n"
                       "note\tbetween\n"
                       "kernel\t0\tk\t100\n"
                       "kernel_cubin\tnothex\n"
                       "launch\t0\tk\t1\t0000000b\textra\n"
                       "launch\t0\tk\t1\n"
                       "end\t1\t1\n";
    CHECK(load_one(&t, odd) == CP_EXIT_OK);
    if (t.nprocs == 1) {
        const cp_trace_kernel *k = find_kernel(&t.procs[0], "k");
        CHECK(k && !k->has_crc && k->launches == 1 && k->kc.records == 1);
        CHECK_EQ_U64(t.procs[0].malformed, 2);
    }
    cp_trace_free(&t);
}

static void test_load_graph(void)
{
    cp_trace t;
    load_fixture(&t, FIXTURES "/handmade-graph");
    CHECK(t.nprocs == 1);
    if (t.nprocs != 1)
        return;
    const cp_trace_process *tp = &t.procs[0];
    CHECK(tp->nunmatched == 1 && tp->unmatched[0].count == 2 && tp->unmatched[0].device == 0);
    CHECK_STR_CONTAINS(tp->nunmatched ? tp->unmatched[0].reason : NULL, "parallel branches");
    CHECK(tp->nkernels == 1);
    const cp_trace_kernel *step = find_kernel(tp, "_Z4stepPfi");
    CHECK(step && step->launches == 4 && step->kc.records == 4);
    cp_trace_free(&t);
}

/* Every kind of instruction with a count of its own: its kind and meaning, and no kind counted
 * in another's population (LDSM a shared request; wgmma's wavefronts, TMA and local memory in
 * none of the shared or global ratios). */
static void test_analyze_kinds(void)
{
    cp_trace t;
    load_fixture(&t, FIXTURES "/handmade-kinds");
    cp_trace_report r;
    analyze_default(&t, &r);
    const cp_trace_kernel *k = t.nprocs ? find_kernel(&t.procs[0], "_Z8gemm_tmaPKfS0_Pfiii") : NULL;
    CHECK(k != NULL);
    if (!k)
        return;
    const double w = 1024;
    CHECK(k->d.requests == 2 * w && k->d.atomic_requests == 2 * w);
    CHECK(k->d.shared_requests == w && k->d.wavefronts == 4 * w && k->d.bank_conflicts == 0);
    CHECK(k->d.gmma_requests == w && k->d.gmma_wavefronts == 8 * w);
    CHECK(k->d.tma_requests == 32 && k->d.local_requests == 2 * w);
    static const struct {
        uint32_t pc;
        const char *kind, *op, *space, *meaning;
    } want[] = {
        {0x100, "tma.ld", "load", "global_to_shared", "TMA copy: 32 executions"},
        {0x200, "ldsm", "load", "shared", "no bank conflict: 4 wavefronts per request"},
        {0x300, "hgmma", "mma", "shared", "wgmma reading shared memory: 1024 instructions, 8"},
        {0x400, "ld.lc", "load", "local", "local memory (register spills"},
        {0x480, "st.lc", "store", "local", "local memory"},
        {0x500, "atom", "atomic", "global", "atomic: coalesced: 1 sector per request"},
        {0x580, "red", "reduction", "global", "atomic: 32 sectors per request where 4"},
    };
    for (size_t i = 0; i < CP_COUNT_OF(want); i++) {
        const cp_trace_instr *in = find_instr(k, want[i].pc);
        CHECK(in && in->rank > 0);
        if (!in)
            continue;
        CHECK(strcmp(cp_trace_kind_name(in), want[i].kind) == 0);
        CHECK(strcmp(cp_trace_op_name(in), want[i].op) == 0);
        CHECK(strcmp(cp_trace_space_name(in), want[i].space) == 0);
        char meaning[700];
        cp_trace_meaning(&in->d, meaning, sizeof meaning);
        CHECK_STR_CONTAINS(meaning, want[i].meaning);
        /* global sectors: counted for atomics and seen as none for LDSM; not seen (NAN, never 0)
         * for TMA copies, wgmma and local memory, whose bytes the sector metrics do not count */
        const int unseen =
            strcmp(want[i].space, "global") != 0 && strcmp(want[i].kind, "ldsm") != 0;
        const double global[] = {in->d.sectors, in->d.ideal_sectors, in->d.excess_sectors,
                                 in->d.excess_bytes};
        for (size_t g = 0; g < CP_COUNT_OF(global); g++)
            CHECK(unseen ? isnan(global[g]) : isfinite(global[g]));
        CHECK(unseen ? isnan(in->excess_share) : isfinite(in->excess_share));
    }
    CHECK(isfinite(k->d.sectors) && k->d.sectors > 0 && !k->cov.excess_known);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* --instructions sampled (handmade-sampled-instructions): the selection record read, and each
 * kernel's instruction counts taken as the sampled launches' own, never scaled to the others; a
 * kernel none of whose launches was sampled is not counted, its zeros no count. */
static void test_analyze_sampled_instructions(void)
{
    cp_trace t;
    load_fixture(&t, FIXTURES "/handmade-sampled-instructions");
    CHECK_EQ_U64(t.nprocs, 1);
    CHECK(t.nprocs && t.procs[0].selection.present && t.procs[0].selection.instructions_sampled &&
          t.procs[0].selection.counter_launches == 5);
    cp_trace_report r;
    analyze_default(&t, &r);
    CHECK(r.counted && r.selection && r.selection->instructions_sampled);
    CHECK_EQ_U64(r.launches_counted, 1431);
    CHECK_EQ_U64(r.launches_with_counters, 15);
    const cp_trace_kernel *copy = find_kernel(&t.procs[0], "_Z4copyPKfPfi");
    const cp_trace_kernel *late = find_kernel(&t.procs[0], "_Z4latePKfPfi");
    CHECK(copy && late);
    if (copy && late) {
        CHECK(cp_trace_kernel_instructions_sampled(copy) && copy->kc.records == 5);
        CHECK(copy->launches == 1400 && copy->from == CP_TRACE_FROM_INSTRUCTIONS);
        CHECK(isnan(copy->scale));
        /* 5 launches of 8192 loads and 8192 stores each: as the pc records say */
        CHECK(copy->d.requests == 5 * 2 * 8192.0);
        CHECK(late->from == CP_TRACE_FROM_NONE && cp_trace_kernel_instructions_sampled(late));
        CHECK(isnan(late->cov.fraction));
    }
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* without the record (handmade-sampled): every counted launch, as before */
    load_fixture(&t, FIXTURES "/handmade-sampled");
    CHECK(t.nprocs && t.procs[0].selection.present && !t.procs[0].selection.instructions_sampled);
    analyze_default(&t, &r);
    const cp_trace_kernel *k = t.nprocs ? find_kernel(&t.procs[0], "_Z4copyPKfPfi") : NULL;
    CHECK(k && !cp_trace_kernel_instructions_sampled(k) && cp_trace_kernel_sampled(k));
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* a value the reader does not know is a malformed line; "every" is the default's */
    CHECK(load_one(&t, "coalprobe-trace-raw\t2\nprocess\t1\t0\tx\nselection\tinstructions\tsome\n"
                       "selection\tinstructions\tevery\n") == CP_EXIT_OK);
    CHECK(t.nprocs == 1 && t.procs[0].malformed == 1 && !t.procs[0].selection.instructions_sampled);
    cp_trace_free(&t);
}

int main(void)
{
    test_load_transpose();
    test_load_children();
    test_load_damaged();
    test_meaning_global_against_model();
    test_meaning_shared_against_model();
    test_meaning_cases();
    test_analyze_transpose();
    test_analyze_ldgsts();
    test_load_graph();
    test_load_same_name_two_cubins();
    test_analyze_kinds();
    test_analyze_sampled_instructions();
    test_analyze_why_no_counts();
    test_load_lean_and_times();
    test_load_short_records();
    test_sass_parse();
    test_sass_function_list();
    test_names_and_texts();
    return cp_test_finish();
}
