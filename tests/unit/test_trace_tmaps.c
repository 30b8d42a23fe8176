/* test_trace_tmaps.c: the tensor maps of coalprobe trace without a GPU: the judgement of a map
 * (whole sectors, the bytes a box row moves) and the reader of tensor_map and tensor_map_calls
 * records, a malformed one counted and skipped. */
#define _POSIX_C_SOURCE 200809L
#include "cp_test.h"
#include "trace/cp_trace_report.h"

#include <string.h>

/* A tiled map of the given element size (bits), box row, alignment and strides. */
static cp_trace_tmap tiled(unsigned bits, uint64_t box0, uint64_t alignment, unsigned rank,
                           const uint64_t *strides)
{
    cp_trace_tmap m = {.count = 1,
                       .kind = "tiled",
                       .data_type = "t",
                       .element_bits = bits,
                       .rank = rank,
                       .nbox = rank,
                       .alignment = alignment};
    for (unsigned i = 0; i < rank; i++) {
        m.dims[i] = 1024, m.box[i] = i ? 8 : box0, m.element_strides[i] = 1;
        if (i + 1 < rank)
            m.strides[i] = strides[i];
    }
    return m;
}

static void test_judge(void)
{
    cp_trace_tmap_judgement j;
    const uint64_t wide[] = {8192, 8192 * 64};
    cp_trace_tmap m = tiled(16, 64, 256, 2, wide); /* float16 64x64: 128-byte rows */
    cp_trace_tmap_judge(&m, &j);
    CHECK(j.known && j.whole_sectors);
    CHECK_EQ_U64(j.row_bytes, 128);
    CHECK_EQ_U64(j.row_sectors_bytes, 128);

    m = tiled(32, 6, 256, 1, NULL); /* float32, 6 elements: 24 B in one 32 B sector */
    cp_trace_tmap_judge(&m, &j);
    CHECK(j.known && !j.whole_sectors);
    CHECK_EQ_U64(j.row_bytes, 24);
    CHECK_EQ_U64(j.row_sectors_bytes, 32);
    CHECK_STR_CONTAINS(j.reason, "rows of 24 B move 32 B of sectors, 75% used");

    m = tiled(32, 12, 256, 1, NULL); /* 48 B rows: two sectors */
    cp_trace_tmap_judge(&m, &j);
    CHECK(!j.whole_sectors);
    CHECK_EQ_U64(j.row_sectors_bytes, 64);

    /* every stride judged: the second one off by 16 */
    const uint64_t odd[] = {4096, 4096 * 1000 + 16};
    m = tiled(16, 64, 256, 3, odd);
    cp_trace_tmap_judge(&m, &j);
    CHECK(j.known && !j.whole_sectors);
    CHECK_STR_CONTAINS(j.reason, "dim 2 stride 4096016 B not a multiple of 32 B");
    CHECK(!strstr(j.reason, "rows of"));

    m = tiled(16, 64, 16, 2, wide); /* address aligned to 16 only */
    cp_trace_tmap_judge(&m, &j);
    CHECK(!j.whole_sectors);
    CHECK_STR_CONTAINS(j.reason, "address aligned to 16 B");

    m = tiled(16, 64, 256, 2, wide); /* element strides do not change the row's span */
    m.element_strides[0] = 2;
    cp_trace_tmap_judge(&m, &j);
    CHECK(j.whole_sectors);
    CHECK_EQ_U64(j.row_bytes, 128);

    m = tiled(4, 128, 256, 2, wide); /* 4-bit packed: 128 values in 64 B */
    cp_trace_tmap_judge(&m, &j);
    CHECK(j.whole_sectors);
    CHECK_EQ_U64(j.row_bytes, 64);

    m = tiled(0, 64, 256, 2, wide); /* a type of a later driver: nothing judged */
    cp_trace_tmap_judge(&m, &j);
    CHECK(!j.known && !j.whole_sectors);
    CHECK_STR_CONTAINS(j.reason, "unknown");

    char buf[64];
    cp_trace_tmap_list(buf, sizeof buf, wide, 2, "x");
    CHECK(strcmp(buf, "8192x524288") == 0);
    cp_trace_tmap_list(buf, sizeof buf, wide, 0, ",");
    CHECK(strcmp(buf, "-") == 0);
}

#define HEAD "coalprobe-trace-raw\t2\nprocess\t1\t0\t./app\n"
#define GOOD                                                                                       \
    "tensor_map\t12\ttiled\tfloat16\t16\t2\t4096,4096\t8192\t64,64\t1,1\tnone\t128B\t128B\tnone\t" \
    "256\n"

static void load(cp_trace *t, const char *text)
{
    cp_status st;
    cp_status_clear(&st);
    memset(t, 0, sizeof *t);
    CHECK(cp_trace_load_text(t, "raw-1.tsv", text, strlen(text), &st) == CP_EXIT_OK);
    CHECK_EQ_U64(t->nprocs, 1);
}

static void test_load(void)
{
    cp_trace t;
    load(&t, HEAD GOOD "tensor_map\t1\tim2col\tbfloat16\t16\t4\t64,32,32,8\t128,4096,131072\t64,"
                       "128\t1,1,1,1\tnone\tnone\tnone\tnan_request_zero_fma\t16\n"
                       "tensor_map_calls\t17\t2\t5\nend\t0\t0\n");
    const cp_trace_process *p = &t.procs[0];
    CHECK_EQ_U64(p->malformed, 0);
    CHECK_EQ_U64(p->ntmaps, 2);
    CHECK(p->tmaps_watched);
    CHECK_EQ_U64(p->tmap_encodes, 17);
    CHECK_EQ_U64(p->tmap_unrecorded, 2);
    CHECK_EQ_U64(p->tmap_replaced, 5);
    if (p->ntmaps == 2) {
        const cp_trace_tmap *m = &p->tmaps[0];
        CHECK_EQ_U64(m->count, 12);
        CHECK(strcmp(m->kind, "tiled") == 0 && strcmp(m->data_type, "float16") == 0);
        CHECK(m->element_bits == 16 && m->rank == 2 && m->nbox == 2);
        CHECK(m->dims[0] == 4096 && m->dims[1] == 4096 && m->strides[0] == 8192);
        CHECK(m->box[0] == 64 && m->box[1] == 64 && m->element_strides[1] == 1);
        CHECK(strcmp(m->swizzle, "128B") == 0 && strcmp(m->l2_promotion, "128B") == 0);
        CHECK_EQ_U64(m->alignment, 256);
        m = &p->tmaps[1];
        CHECK(strcmp(m->kind, "im2col") == 0 && m->rank == 4 && m->nbox == 2);
        CHECK(m->box[0] == 64 && m->box[1] == 128 && m->strides[2] == 131072);
        CHECK(strcmp(m->oob_fill, "nan_request_zero_fma") == 0 && m->alignment == 16);
    }
    cp_trace_free(&t);

    /* malformed: each counted, none kept, the file read on */
    static const char *const bad[] = {
        "tensor_map\t12\ttiled\tfloat16\t16\t2\t4096,4096\t8192\t64,64\t1,"
        "1\tnone\t128B\t128B\tnone\n",
        "tensor_map\tx\ttiled\tfloat16\t16\t2\t4096,4096\t8192\t64,64\t1,"
        "1\tnone\tnone\tnone\tnone\t256\n",
        "tensor_map\t1\tblocked\tfloat16\t16\t2\t4096,4096\t8192\t64,64\t1,"
        "1\tnone\tnone\tnone\tnone\t256\n",
        "tensor_map\t1\ttiled\tfloat16\t0\t2\t4096,4096\t8192\t64,64\t1,"
        "1\tnone\tnone\tnone\tnone\t256\n",
        "tensor_map\t1\ttiled\tfloat16\t16\t6\t1,1,1,1,1,1\t1,1,1,1,1\t1,1,1,1,1,1\t1,1,1,1,1,"
        "1\tnone\tnone\tnone\tnone\t256\n",
        "tensor_map\t1\ttiled\tfloat16\t16\t2\t4096\t8192\t64,64\t1,"
        "1\tnone\tnone\tnone\tnone\t256\n",
        "tensor_map\t1\ttiled\tfloat16\t16\t2\t4096,4096\t-\t64,64\t1,"
        "1\tnone\tnone\tnone\tnone\t256\n",
        "tensor_map\t1\ttiled\tfloat16\t16\t2\t4096,4096\t8192\t64,,64\t1,"
        "1\tnone\tnone\tnone\tnone\t256\n",
        "tensor_map\t1\ttiled\tfloat16\t16\t2\t4096,4096\t8192\t64,64\t1,"
        "1\tnone\tnone\tnone\tnone\t48\n",
        "tensor_map\t1\ttiled\tfloat16\t16\t2\t4096,4096\t8192\t64,64\t1,"
        "1\tnone\t\tnone\tnone\t256\n",
        "tensor_map\t1\ttiled\tfloat32\t32\t1\t1000\t-\t0\t1\tnone\tnone\tnone\tnone\t256\n",
        "tensor_map_calls\t1\t2\t0\n",
        "tensor_map_calls\t1\t0\n",
        "kernel_tmap\t0\tk\t0\t1\n", /* a map no tensor_map record before it names */
        "kernel_tmap\t0\tk\t-\t0\n", /* no launch */
        "kernel_tmap\t0\tk\t-\t1\tnothex\n",
        "kernel_tmap\t0\tk\t-\n",
        "kernel_tmap\t0\t\t-\t1\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s%send\t0\t0\n", HEAD, bad[i], GOOD);
        load(&t, text);
        p = &t.procs[0];
        if (p->malformed != 1 || p->ntmaps != 1 || p->tmaps_watched || !p->complete)
            fprintf(stderr, "bad line %zu: %s", i, bad[i]);
        CHECK_EQ_U64(p->malformed, 1);
        CHECK_EQ_U64(p->ntmaps, 1); /* the good line after it */
        CHECK(!p->tmaps_watched);
        CHECK(p->complete);
        cp_trace_free(&t);
    }
}

int main(void)
{
    test_judge();
    test_load();
    return cp_test_finish();
}
