/* test_trace_where.c: where the waste comes from, without a GPU: the reader of host, rank,
 * frame, range, site, launches_at and kernel_at records (damaged ones counted and skipped), each
 * call site's excess apportioned from its kernel's (by sectors, or by launches without
 * kernel_at), the groups of --group-by adding up to the program's totals, and the ranks off the
 * median rank flagged. */
#define _POSIX_C_SOURCE 200809L
#include "cp_test.h"
#include "trace/cp_trace_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FIXTURES CP_TEST_DATA_DIR "/golden/trace"

#define HEAD                                                                                       \
    "coalprobe-trace-raw\t2\n"                                                                     \
    "process\t10\t1\tpython3 t.py\n"                                                               \
    "device\t0\tGH100\tH100\t9.0\n"                                                                \
    "counting\t0\tevery_launch\n"                                                                  \
    "metrics\tsmsp__sass_inst_executed_op_global_ld\tsmsp__sass_sectors_mem_global\t"              \
    "smsp__sass_sectors_mem_global_ideal\n"                                                        \
    "kernel_metrics\tl1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\n"

static int load_one(cp_trace *t, const char *name, const char *text)
{
    memset(t, 0, sizeof *t);
    cp_status st;
    cp_status_clear(&st);
    return cp_trace_load_text(t, name, text, strlen(text), &st);
}

static cp_trace_options options(int by)
{
    cp_trace_options o = {5, NULL, 0, NAN, NAN, NAN, by, 0.25};
    return o;
}

static void test_load(void)
{
    cp_trace t;
    const char *text = HEAD "host\tnode7\n"
                            "rank\tRANK\t3\n"
                            "rank\tLOCAL_RANK\t1\n"
                            "frame\t2\t/a/main.py\t9\tmain\t0\n"
                            "frame\t1\t/a/t.py\t42\tstep\t2\n"
                            "range\t1\t-\touter\t0\n"
                            "range\t2\tdom\tinner\t1\n"
                            "site\t1\t0\tk\t1\t2\n"
                            "site\t2\t0\tk\tnogil\t0\n"
                            "site\t3\t0\tk\t-\t0\n"
                            "site\t4\t0\tk\tnone\t1\n"
                            "site\t5\t0\tk\toverflow\t0\n"
                            "kernel\t0\tk\t40\n"
                            "kernel_at\t1\n"
                            "kernel\t0\tk\t24\n"
                            "kernel_at\t2\n"
                            "launches_at\t1\t2\n"
                            "launches_at\t1\t3\n"
                            "launch\t0\tk\t5\n";
    CHECK(load_one(&t, "raw-10.tsv", text) == CP_EXIT_OK);
    CHECK(t.nprocs == 1);
    const cp_trace_process *p = &t.procs[0];
    CHECK_EQ_U64(p->malformed, 0);
    CHECK(p->host && strcmp(p->host, "node7") == 0);
    CHECK_EQ_U64(p->nenvs, 2);
    CHECK(p->rank == 3);
    CHECK_EQ_U64(p->nframes, 2);
    CHECK_EQ_U64(p->nranges, 2);
    CHECK_EQ_U64(p->nsites, 5);
    const cp_trace_site *s = &p->sites[0];
    CHECK(s->kind == CP_TRACE_SITE_FRAME && s->frame < p->nframes);
    CHECK_EQ_U64(s->launches, 5);
    CHECK_EQ_U64(s->kc.records, 1);
    CHECK_NEAR(s->kc.value[CP_TRACE_K_LD_SECTORS], 40, 0);
    CHECK_NEAR(p->sites[1].kc.value[CP_TRACE_K_LD_SECTORS], 24, 0);
    CHECK(p->sites[1].kind == CP_TRACE_SITE_NOGIL);
    CHECK(p->sites[2].kind == CP_TRACE_SITE_NOPYTHON);
    CHECK(p->sites[3].kind == CP_TRACE_SITE_NOUSER);
    CHECK(p->sites[4].kind == CP_TRACE_SITE_OVERFLOW);
    char buf[512];
    cp_trace_site_line(p, s, buf, sizeof buf);
    CHECK(strcmp(buf, "/a/t.py:42") == 0);
    cp_trace_site_range(p, s, buf, sizeof buf);
    CHECK(strcmp(buf, "dom:outer/inner") == 0);
    cp_trace_site_stack(p, s, buf, sizeof buf);
    CHECK(strcmp(buf, "main (/a/main.py:9)") == 0);
    cp_trace_site_range(p, &p->sites[3], buf, sizeof buf);
    CHECK(strcmp(buf, "outer") == 0);
    cp_trace_process_label(p, buf, sizeof buf);
    CHECK(strcmp(buf, "rank 3 (node7, pid 10)") == 0);
    cp_trace_free(&t);
}

static void test_load_damaged(void)
{
    cp_trace t;
    const char *text = HEAD "site\t1\t0\tk\t-\t0\n"
                            "kernel_at\t1\n" /* no kernel record before it */
                            "kernel\t0\tk\t8\n"
                            "launch\t0\tk\t1\n"
                            "kernel_at\t1\n" /* a launch record between */
                            "kernel\t0\tk\t8\n"
                            "kernel_at\t9\n" /* an unknown site */
                            "site\t2\t0\tother\t-\t0\n"
                            "kernel\t0\tk\t8\n"
                            "kernel_at\t2\n"                /* a site of another kernel */
                            "site\t1\t0\tk\t-\t0\n"         /* a site ID twice */
                            "site\t3\t0\tk\tsomewhere\t0\n" /* a FRAME that is nothing */
                            "site\t4\t0\tk\t1\n"            /* a field short */
                            "frame\t0\tf.py\t1\tf\t0\n"     /* ID 0 */
                            "frame\t1\tf.py\tx\tf\t0\n"     /* a bad line number */
                            "range\t1\t-\tr\n"              /* a field short */
                            "launches_at\t7\t1\n"           /* an unknown site */
                            "launches_at\t1\t-1\n"          /* a bad count */
                            "rank\tHOME\t/root\n"           /* not a rank variable */
                            "host\ta\n"
                            "host\tb\n"    /* twice */
                            "kernel_at\n"; /* no site */
    CHECK(load_one(&t, "raw-10.tsv", text) == CP_EXIT_OK);
    const cp_trace_process *p = &t.procs[0];
    CHECK_EQ_U64(p->malformed, 15);
    CHECK_EQ_U64(p->nsites, 2);
    CHECK_EQ_U64(p->sites[0].kc.records, 0);
    CHECK_EQ_U64(p->sites[0].launches, 0);
    CHECK_EQ_U64(p->nframes, 0);
    CHECK_EQ_U64(p->nenvs, 0);
    CHECK(p->rank == -1);
    CHECK(strcmp(p->host, "a") == 0);
    cp_trace_free(&t);
}

/* handmade-python: the gather's excess split 108:72 by its sites' sectors (not 3:1 by
 * launches): 140 K excess sectors of 32 bytes = 4587520 bytes, 60% and 40% of them. */
static void test_apportion_sectors(void)
{
    cp_trace t;
    cp_status st = {0};
    CHECK(cp_trace_load_dir(FIXTURES "/handmade-python", &t, NULL, &st) == CP_EXIT_OK);
    cp_trace_options o = options(CP_TRACE_GROUP_KERNEL);
    cp_trace_run run = {0};
    cp_trace_report r;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    const cp_trace_process *p = &t.procs[0];
    CHECK_EQ_U64(p->nsites, 5);
    const cp_trace_site *a = &p->sites[0], *b = &p->sites[1];
    CHECK(a->kernel && a->kernel == b->kernel);
    CHECK_NEAR(a->kernel->d.excess_bytes, 4587520, 0);
    CHECK_NEAR(a->sectors, 110592, 0);
    CHECK_NEAR(b->sectors, 73728, 0);
    CHECK_NEAR(a->excess_bytes, 2752512, 1e-6);
    CHECK_NEAR(b->excess_bytes, 1835008, 1e-6);
    CHECK(!a->by_launches && !b->by_launches);
    CHECK_EQ_U64(a->launches, 3);
    CHECK(r.ngroups == 0); /* by kernel: no groups */
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* Without kernel_at, by launches: 3 and 1 launches of a kernel of 8192 excess bytes. */
static void test_apportion_launches(void)
{
    cp_trace t;
    const char *text = HEAD "frame\t1\t/a/t.py\t1\tf\t0\n"
                            "frame\t2\t/a/t.py\t2\tg\t0\n"
                            "site\t1\t0\tk\t1\t0\n"
                            "site\t2\t0\tk\t2\t0\n"
                            "launch\t0\tk\t4\n"
                            "launches_at\t1\t3\n"
                            "launches_at\t2\t1\n"
                            "pc\t0\t0000abcd\t0\tk\t0x10\t100\t1056\t800\n"
                            "end\t1\t4\n";
    CHECK(load_one(&t, "raw-10.tsv", text) == CP_EXIT_OK);
    cp_trace_options o = options(CP_TRACE_GROUP_LINE);
    cp_trace_run run = {0};
    cp_trace_report r;
    cp_status st = {0};
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    const cp_trace_process *p = &t.procs[0];
    CHECK_NEAR(r.program.excess_bytes, 8192, 0);
    CHECK(p->sites[0].by_launches && p->sites[1].by_launches);
    CHECK_NEAR(p->sites[0].excess_bytes, 6144, 1e-9);
    CHECK_NEAR(p->sites[1].excess_bytes, 2048, 1e-9);
    CHECK_NEAR(p->sites[0].sectors, 792, 1e-9);
    CHECK_EQ_U64(r.ngroups, 2);
    CHECK(strcmp(r.groups[0].key, "/a/t.py:1") == 0);
    CHECK(r.groups[0].by_launches);
    CHECK_NEAR(r.groups[0].excess_share, 0.75, 1e-12);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* Every grouping adds up to the program's excess, sectors and launches; the groups without a
 * Python line are kept. */
static void test_totals(void)
{
    for (int by = CP_TRACE_GROUP_LINE; by <= CP_TRACE_GROUP_RANGE; by++) {
        cp_trace t;
        cp_status st = {0};
        CHECK(cp_trace_load_dir(FIXTURES "/handmade-python", &t, NULL, &st) == CP_EXIT_OK);
        cp_trace_options o = options(by);
        cp_trace_run run = {0};
        cp_trace_report r;
        CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
        double excess = 0, sectors = 0, share = 0;
        uint64_t launches = 0, kernel_launches = 0;
        int nogil = 0, nopython = 0;
        for (size_t i = 0; i < r.ngroups; i++) {
            excess += r.groups[i].excess_bytes;
            sectors += r.groups[i].sectors;
            launches += r.groups[i].launches;
            share += r.groups[i].excess_share;
            nogil |= strstr(r.groups[i].key, "without the GIL") != NULL;
            nopython |= strstr(r.groups[i].key, "runs no Python") != NULL;
            if (i)
                CHECK(r.groups[i - 1].excess_bytes >= r.groups[i].excess_bytes);
        }
        for (size_t k = 0; k < t.procs[0].nkernels; k++)
            kernel_launches += t.procs[0].kernels[k].launches;
        CHECK_NEAR(excess, r.program.excess_bytes, 1e-6);
        CHECK_NEAR(excess, 4784128, 1e-6);
        CHECK_NEAR(sectors, r.program.sectors, 1e-6);
        CHECK_EQ_U64(launches, kernel_launches);
        CHECK_NEAR(share, 1, 1e-12);
        CHECK(by == CP_TRACE_GROUP_RANGE || (nogil && nopython));
        CHECK_EQ_U64(r.ngroups, by == CP_TRACE_GROUP_RANGE ? 4 : 5);
        cp_trace_report_free(&r);
        cp_trace_free(&t);
    }
}

/* One rank's process: RANK rank, one kernel of `excess` excess sectors. */
static void add_rank(cp_trace *t, int rank, int excess)
{
    char text[2048];
    snprintf(text, sizeof text,
             HEAD "host\tn%d\nrank\tRANK\t%d\nlaunch\t0\tk\t1\n"
                  "pc\t0\t0000abcd\t0\tk\t0x10\t100\t%d\t400\nend\t1\t1\n",
             rank, rank, 400 + excess);
    char name[32];
    snprintf(name, sizeof name, "raw-%d.tsv", 100 + rank);
    cp_status st = {0};
    CHECK(cp_trace_load_text(t, name, text, strlen(text), &st) == CP_EXIT_OK);
}

/* Three ranks of 100, 120 and 300 excess sectors: the median is rank 1's; rank 2 (+150%) is
 * flagged, rank 0 (-16.7%) is not. Two ranks of 100 and 300: the lower middle, 100, is the
 * median: the rank of 3x the excess is flagged, the other not. */
static void test_ranks(void)
{
    cp_trace t = {0};
    add_rank(&t, 2, 300);
    add_rank(&t, 0, 100);
    add_rank(&t, 1, 120);
    cp_trace_sort_processes(&t);
    cp_trace_options o = options(CP_TRACE_GROUP_KERNEL);
    cp_trace_run run = {0};
    cp_trace_report r;
    cp_status st = {0};
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK_EQ_U64(r.nranks, 3);
    CHECK_NEAR(r.rank_median, 120 * 32, 0);
    CHECK(r.ranks[0].rank == 0 && !r.ranks[0].flagged);
    CHECK_NEAR(r.ranks[0].deviation, -20.0 / 120, 1e-12);
    CHECK(r.ranks[1].rank == 1 && !r.ranks[1].flagged);
    CHECK(r.ranks[2].rank == 2 && r.ranks[2].flagged);
    CHECK_NEAR(r.ranks[2].deviation, 1.5, 1e-12);
    CHECK(strcmp(r.ranks[2].host, "n2") == 0);
    CHECK_EQ_U64(r.ranks[2].npids, 1);
    cp_trace_report_free(&r);
    cp_trace_free(&t);

    memset(&t, 0, sizeof t);
    add_rank(&t, 0, 100);
    add_rank(&t, 1, 300);
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK_EQ_U64(r.nranks, 2);
    CHECK_NEAR(r.rank_median, 100 * 32, 0);
    CHECK(!r.ranks[0].flagged && r.ranks[1].flagged);
    o.rank_spread = 2.5; /* 200% off is within 250% */
    cp_trace_report_free(&r);
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    CHECK(!r.ranks[1].flagged);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* Two directories with a raw file of one name: both processes are kept, named DIR/NAME. */
static void test_dirs(void)
{
    cp_trace t;
    cp_status st = {0};
    const char *dirs[] = {FIXTURES "/handmade-ranks/node0", FIXTURES "/handmade-ranks/node1"};
    CHECK(cp_trace_load_dirs(dirs, 2, &t, NULL, &st) == CP_EXIT_OK);
    CHECK_EQ_U64(t.nprocs, 2);
    CHECK_EQ_U64(t.nfiles, 2);
    CHECK_STR_CONTAINS(t.procs[0].file, "node0/raw-4242.tsv");
    CHECK_STR_CONTAINS(t.procs[1].file, "node1/raw-4242.tsv");
    CHECK(t.procs[0].rank == 0 && t.procs[1].rank == 1);
    CHECK(strcmp(t.procs[1].dir, dirs[1]) == 0);
    cp_trace_free(&t);
}

int main(void)
{
    test_load();
    test_load_damaged();
    test_apportion_sectors();
    test_apportion_launches();
    test_totals();
    test_ranks();
    test_dirs();
    return cp_test_finish();
}
