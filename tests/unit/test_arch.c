/* test_arch.c: the hardware facts table (values equal the model's constants, evidence per
 * architecture, what is unverified where) and the decision whether a device runs a build's
 * kernels: SASS, SASS of an older minor, PTX JIT, or a refusal naming the fix. No GPU. */
#include "model/cp_model.h"
#include "cp_test.h"

static cp_arch_built parse(const char *list)
{
    cp_arch_built b;
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_arch_parse_built(list, &b, &st), CP_EXIT_OK);
    if (st.code)
        fprintf(stderr, "%s: %s\n", list, st.message);
    return b;
}

static void check_run(const cp_arch_built *b, int arch, cp_arch_run_kind kind, int used)
{
    cp_arch_run r = cp_arch_decide(b, arch);
    CHECK_EQ_U64(r.kind, kind);
    CHECK_EQ_U64(r.arch, used);
    if (r.kind != kind || r.arch != used)
        fprintf(stderr, "  sm_%d: got kind %d arch %d, want kind %d arch %d\n", arch, r.kind,
                r.arch, kind, used);
}

static void facts(void)
{
    /* the table states the numbers the model counts with */
    CHECK_EQ_U64(cp_arch_fact(CP_FACT_WARP_SIZE)->value, CP_WARP_SIZE);
    CHECK_EQ_U64(cp_arch_fact(CP_FACT_SECTOR_BYTES)->value, CP_SECTOR_BYTES);
    CHECK_EQ_U64(cp_arch_fact(CP_FACT_LINE_BYTES)->value, CP_LINE_BYTES);
    CHECK_EQ_U64(cp_arch_fact(CP_FACT_SHARED_BANKS)->value, CP_SHARED_BANKS);
    CHECK_EQ_U64(cp_arch_fact(CP_FACT_DRAM_GRANULE)->value, CP_DRAM_GRANULE_BYTES);
    CHECK_EQ_U64(CP_LINE_BYTES % CP_SECTOR_BYTES, 0);
    CHECK(cp_arch_fact(CP_FACT_COUNT) == NULL);
    CHECK(cp_arch_fact((cp_fact)-1) == NULL);

    /* every fact: a key, a statement, what uses it, at least one piece of evidence with a
     * source, and only architectures CUDA 13.0 knows */
    for (int f = 0; f < CP_FACT_COUNT; f++) {
        const cp_fact_info *i = cp_arch_fact((cp_fact)f);
        CHECK(i->key && i->statement && i->used_by && i->sources[0].source);
        for (size_t s = 0; s < sizeof i->sources / sizeof i->sources[0]; s++) {
            if (i->sources[s].kind == CP_EVIDENCE_NONE)
                continue;
            CHECK(i->sources[s].source && i->sources[s].archs[0] != 0);
            for (const int *a = i->sources[s].archs; *a; a++) {
                int known = 0;
                for (const int *k = cp_arch_cuda_archs; *k; k++)
                    known |= *k == *a;
                CHECK(known);
            }
        }
        for (int g = 0; g < f; g++)
            CHECK(strcmp(cp_arch_fact((cp_fact)g)->key, i->key) != 0);
        /* the H100 and H200 (sm_90) are where coalprobe measured: everything holds there */
        CHECK(cp_arch_fact_verified((cp_fact)f, 90));
    }

    /* the evidence: measured beats documented; evidence against wins where it applies */
    const char *src = NULL;
    CHECK_EQ_U64(cp_arch_fact_evidence(CP_FACT_SECTOR_BYTES, 90, &src), CP_EVIDENCE_MEASURED);
    CHECK_STR_CONTAINS(src, "H100");
    CHECK_EQ_U64(cp_arch_fact_evidence(CP_FACT_SECTOR_BYTES, 75, &src), CP_EVIDENCE_DOCUMENTED);
    CHECK_STR_CONTAINS(src, "Best Practices");
    CHECK_EQ_U64(cp_arch_fact_evidence(CP_FACT_DRAM_GRANULE, 80, &src), CP_EVIDENCE_NONE);
    CHECK(src == NULL);
    CHECK_EQ_U64(cp_arch_fact_evidence(CP_FACT_GLOBAL_WIDTH_16, 100, &src), CP_EVIDENCE_AGAINST);
    CHECK_STR_CONTAINS(src, "ld.global.v8");
    CHECK(!cp_arch_fact_verified(CP_FACT_GLOBAL_WIDTH_16, 120));
    CHECK(cp_arch_fact_verified(CP_FACT_GLOBAL_WIDTH_16, 86));
    CHECK(!cp_arch_fact_verified(CP_FACT_SECTOR_BYTES, 999)); /* an architecture nobody knows */
    CHECK(strcmp(cp_arch_evidence_name(CP_EVIDENCE_AGAINST), "against") == 0);
    CHECK(strcmp(cp_arch_evidence_name(CP_EVIDENCE_NONE), "none") == 0);

    /* what a report says is unverified */
    char buf[256];
    CHECK_EQ_U64(cp_arch_unverified(90, buf, sizeof buf), 0);
    CHECK(buf[0] == '\0');
    CHECK_EQ_U64(cp_arch_unverified(80, buf, sizeof buf), 3);
    CHECK(strcmp(buf, "request_rule, shared_wide, dram_granule_bytes") == 0);
    CHECK_EQ_U64(cp_arch_unverified(100, buf, sizeof buf), 4);
    CHECK(strcmp(buf, "request_rule, global_width_16, shared_wide, dram_granule_bytes") == 0);
    char tiny[8];
    CHECK_EQ_U64(cp_arch_unverified(100, tiny, sizeof tiny), 4); /* cut, still counted */
    CHECK(strlen(tiny) == sizeof tiny - 1);
    printf("unverified on sm_100: %s\n", buf);
}

static void built_lists(void)
{
    cp_status st;
    cp_arch_built b;
    char text[256];

    /* the default list of CMakeLists.txt, with semicolons or spaces */
    b = parse("75-real;80-real;86-real;89-real;90-real;100-real;110-real;120-real;120-virtual");
    CHECK_EQ_U64(b.count, 9);
    cp_arch_describe_built(&b, text, sizeof text);
    CHECK(strcmp(text, "sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_110 sm_120, PTX compute_120") == 0);
    printf("default build: %s\n", text);
    /* every GPU family CUDA 13.0 knows runs it */
    check_run(&b, 75, CP_ARCH_RUN_SASS, 75);       /* T4 */
    check_run(&b, 80, CP_ARCH_RUN_SASS, 80);       /* A100 */
    check_run(&b, 86, CP_ARCH_RUN_SASS, 86);       /* RTX 30, A10 */
    check_run(&b, 87, CP_ARCH_RUN_COMPATIBLE, 86); /* Orin: sm_86 SASS */
    check_run(&b, 88, CP_ARCH_RUN_COMPATIBLE, 86);
    check_run(&b, 89, CP_ARCH_RUN_SASS, 89);         /* L4, RTX 40 */
    check_run(&b, 90, CP_ARCH_RUN_SASS, 90);         /* H100, H200 */
    check_run(&b, 100, CP_ARCH_RUN_SASS, 100);       /* B200 */
    check_run(&b, 103, CP_ARCH_RUN_COMPATIBLE, 100); /* B300 */
    check_run(&b, 110, CP_ARCH_RUN_SASS, 110);       /* Thor */
    check_run(&b, 120, CP_ARCH_RUN_SASS, 120);       /* RTX 50 */
    check_run(&b, 121, CP_ARCH_RUN_COMPATIBLE, 120); /* GB10 */
    check_run(&b, 130, CP_ARCH_RUN_PTX, 120);        /* a GPU newer than CUDA 13.0: JIT */
    check_run(&b, 70, CP_ARCH_RUN_NONE, 0);          /* Volta: CUDA 13 dropped it */
    for (const int *a = cp_arch_cuda_archs; *a; a++) {
        cp_status_clear(&st);
        CHECK_EQ_U64(cp_arch_check_device(&b, "GPU", *a, &st), CP_EXIT_OK);
    }

    /* a developer build for the H100: another GPU is refused with the fix */
    b = parse("90");
    cp_arch_describe_built(&b, text, sizeof text);
    CHECK(strcmp(text, "sm_90, PTX compute_90") == 0);
    check_run(&b, 90, CP_ARCH_RUN_SASS, 90);
    check_run(&b, 100, CP_ARCH_RUN_PTX, 90); /* PTX JIT-compiles for a newer GPU */
    check_run(&b, 86, CP_ARCH_RUN_NONE, 0);  /* but never for an older one */
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_arch_check_device(&b, "NVIDIA GeForce RTX 3090", 86, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "NVIDIA GeForce RTX 3090 (sm_86) cannot run this coalprobe");
    CHECK_STR_CONTAINS(st.message, "built for sm_90, PTX compute_90");
    CHECK_STR_CONTAINS(st.message, "PTX runs only on the same or a newer architecture");
    CHECK_STR_CONTAINS(st.hint, "-DCMAKE_CUDA_ARCHITECTURES=86");
    CHECK_STR_CONTAINS(st.hint, "native");
    printf("refusal: %s\nhint: %s\n", st.message, st.hint);

    /* SASS only: no JIT for anything else; the message says what was built */
    b = parse("90-real 80-real");
    check_run(&b, 100, CP_ARCH_RUN_NONE, 0);
    check_run(&b, 89, CP_ARCH_RUN_COMPATIBLE, 80);
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_arch_check_device(&b, "", 75, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "the GPU (sm_75) cannot run this coalprobe: its kernels are "
                                   "built for sm_90 sm_80");
    CHECK(strstr(st.message, "PTX") == NULL);

    /* arch-specific (a) code runs on its own architecture only; family (f) code on its major */
    b = parse("90a-real;100f");
    cp_arch_describe_built(&b, text, sizeof text);
    CHECK(strcmp(text, "sm_90a sm_100f, PTX compute_100f") == 0);
    check_run(&b, 90, CP_ARCH_RUN_SASS, 90);
    check_run(&b, 100, CP_ARCH_RUN_SASS, 100);
    check_run(&b, 103, CP_ARCH_RUN_COMPATIBLE, 100);
    check_run(&b, 120, CP_ARCH_RUN_NONE, 0); /* family PTX stays in its family */
    b = parse("90a");
    check_run(&b, 100, CP_ARCH_RUN_NONE, 0);

    /* PTX only */
    b = parse("80-virtual");
    cp_arch_describe_built(&b, text, sizeof text);
    CHECK(strcmp(text, "PTX compute_80") == 0);
    check_run(&b, 89, CP_ARCH_RUN_PTX, 80);

    /* no list (a build without CMake's define): nothing is refused */
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_arch_check_device(NULL, "GPU", 75, &st), CP_EXIT_OK);
    check_run(NULL, 75, CP_ARCH_RUN_NONE, 0);

    /* bad lists */
    const char *bad[] = {"", " ; ", "sm_90", "90-fake", "90b", "x", "9", "-real", "90a-real-x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cp_status_clear(&st);
        CHECK_EQ_U64(cp_arch_parse_built(bad[i], &b, &st), CP_EXIT_USAGE);
        CHECK(st.message[0] != '\0');
    }
    cp_status_clear(&st);
    cp_arch_parse_built("90-fake", &b, &st);
    CHECK_STR_CONTAINS(st.message, "'90-fake' is not a CUDA architecture");

    /* this binary's own list (CMake's CP_CUDA_ARCHS) parses and runs on at least its first */
    const cp_arch_built *self = cp_arch_this_build();
    CHECK(self != NULL);
    if (self) {
        cp_arch_describe_built(self, text, sizeof text);
        printf("this build: %s\n", text);
        CHECK(self->count > 0);
        CHECK(cp_arch_decide(self, self->entries[0].arch).kind != CP_ARCH_RUN_NONE);
    }
}

/* docs/model.md's table of where each fact holds says what the code's table says. */
static void docs_table(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/../docs/model.md", CP_TEST_DATA_DIR);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[1024];
    int archs[32], narchs = 0, rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "| fact | 75 |", 13) == 0) { /* the header: the architectures */
            narchs = 0;
            for (char *p = line + 7; *p && narchs < 32;) {
                p += strspn(p, "| \n");
                if (*p >= '0' && *p <= '9')
                    archs[narchs++] = (int)strtol(p, &p, 10);
                else if (*p)
                    p++;
            }
            continue;
        }
        if (narchs == 0 || strncmp(line, "| `", 3) != 0)
            continue;
        char key[64];
        size_t n = strcspn(line + 3, "`");
        snprintf(key, sizeof key, "%.*s", (int)n, line + 3);
        int fact = -1;
        for (int k = 0; k < CP_FACT_COUNT; k++)
            if (strcmp(cp_arch_fact((cp_fact)k)->key, key) == 0)
                fact = k;
        CHECK(fact >= 0);
        char *p = line + 3 + n + 1;
        for (int a = 0; a < narchs && fact >= 0; a++) {
            p = strchr(p, '|');
            if (!p)
                break;
            p += strspn(p, "| ");
            cp_evidence want = strncmp(p, "M", 1) == 0        ? CP_EVIDENCE_MEASURED
                               : strncmp(p, "D", 1) == 0      ? CP_EVIDENCE_DOCUMENTED
                               : strncmp(p, "P", 1) == 0      ? CP_EVIDENCE_PAPER
                               : strncmp(p, "\u2717", 3) == 0 ? CP_EVIDENCE_AGAINST
                                                              : CP_EVIDENCE_NONE;
            cp_evidence got = cp_arch_fact_evidence((cp_fact)fact, archs[a], NULL);
            CHECK_EQ_U64(got, want);
            if (got != want)
                fprintf(stderr, "docs/model.md: %s on sm_%d says %d, the code %d\n", key, archs[a],
                        want, got);
        }
        rows++;
        if (rows == CP_FACT_COUNT)
            break;
    }
    fclose(f);
    CHECK_EQ_U64(narchs, 12);
    CHECK_EQ_U64(rows, CP_FACT_COUNT);
}

int main(void)
{
    facts();
    docs_table();
    built_lists();
    return cp_test_finish();
}
