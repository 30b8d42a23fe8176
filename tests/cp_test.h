/* cp_test.h: a minimal unit-test harness: CHECK macros that count and report failures, and a
 * closing line "N passed, N failed" that ctest's log shows (no check at all fails too). */
#ifndef CP_TEST_H
#define CP_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cp_test_passed, cp_test_failed;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (cond) {                                                                                \
            cp_test_passed++;                                                                      \
        } else {                                                                                   \
            cp_test_failed++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                         \
    do {                                                                                           \
        uint64_t cp_a_ = (uint64_t)(a), cp_b_ = (uint64_t)(b);                                     \
        if (cp_a_ == cp_b_) {                                                                      \
            cp_test_passed++;                                                                      \
        } else {                                                                                   \
            cp_test_failed++;                                                                      \
            fprintf(stderr, "%s:%d: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n", __FILE__,      \
                    __LINE__, #a, #b, cp_a_, cp_b_);                                               \
        }                                                                                          \
    } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                                            \
    do {                                                                                           \
        const char *cp_h_ = (hay), *cp_n_ = (needle);                                              \
        if (cp_h_ && strstr(cp_h_, cp_n_)) {                                                       \
            cp_test_passed++;                                                                      \
        } else {                                                                                   \
            cp_test_failed++;                                                                      \
            fprintf(stderr, "%s:%d: expected \"%s\" in \"%s\"\n", __FILE__, __LINE__, cp_n_,       \
                    cp_h_ ? cp_h_ : "(null)");                                                     \
        }                                                                                          \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double cp_a_ = (a), cp_b_ = (b);                                                           \
        if (fabs(cp_a_ - cp_b_) <= (tol)) {                                                        \
            cp_test_passed++;                                                                      \
        } else {                                                                                   \
            cp_test_failed++;                                                                      \
            fprintf(stderr, "%s:%d: %s ~ %s failed: %g != %g\n", __FILE__, __LINE__, #a, #b,       \
                    cp_a_, cp_b_);                                                                 \
        }                                                                                          \
    } while (0)

/* A refusal as a usage error: rc is CP_EXIT_USAGE, the cp_status st's message holds needle and
 * its hint says what to do (the names resolve where the macro is used). */
#define CHECK_USAGE_ERROR(rc, st, needle)                                                          \
    do {                                                                                           \
        CHECK_EQ_U64(rc, CP_EXIT_USAGE);                                                           \
        CHECK_STR_CONTAINS((st).message, needle);                                                  \
        CHECK((st).hint[0] != '\0');                                                               \
    } while (0)

/* Prints the first line where got differs from want (golden-file tests). */
static inline void cp_test_print_first_difference(const char *name, const char *want,
                                                  const char *got)
{
    for (int line = 1;; line++) {
        size_t wl = strcspn(want, "\n"), gl = strcspn(got, "\n");
        if (wl != gl || memcmp(want, got, wl) != 0 || !want[wl] != !got[gl]) {
            fprintf(stderr, "%s: line %d differs\n  want: %.*s%s\n  got:  %.*s%s\n", name, line,
                    (int)wl, want, want[wl] ? "" : "<end of file>", (int)gl, got,
                    got[gl] ? "" : "<end of file>");
            return;
        }
        if (!want[wl])
            return;
        want += wl + 1;
        got += gl + 1;
    }
}

/* The rest of stream f as a NUL-terminated string the caller frees (NULL when out of memory). */
static inline char *cp_test_read_stream(FILE *f)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len - 1, f);
        if (len + 1 < cap)
            break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            return NULL;
        }
        buf = grown;
        cap *= 2;
    }
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* Checks got against the golden file at path (name in messages); with CP_UPDATE_GOLDEN=1
 * rewrites the golden file instead. */
static inline void cp_test_check_golden(const char *path, const char *name, const char *got)
{
    const char *update = getenv("CP_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        if (f) {
            CHECK(fputs(got, f) >= 0);
            CHECK(fclose(f) == 0);
            printf("updated %s\n", path);
        }
        return;
    }
    FILE *f = fopen(path, "rb");
    char *want = f ? cp_test_read_stream(f) : NULL;
    if (f)
        fclose(f);
    if (!want) {
        CHECK(!"golden file missing (run with CP_UPDATE_GOLDEN=1)");
        fprintf(stderr, "cannot read %s\n", path);
        return;
    }
    int same = strcmp(want, got) == 0;
    CHECK(same);
    if (!same)
        cp_test_print_first_difference(name, want, got);
    free(want);
}

/* Prints the closing line and gives main's exit status: a failure when a check failed, and
 * when no check ran at all (a test that checks nothing cannot fail, so it must not pass; one
 * that has nothing to check where it runs returns 77, a skip, instead). */
static inline int cp_test_finish(void)
{
    printf("%d passed, %d failed\n", cp_test_passed, cp_test_failed);
    if (cp_test_passed + cp_test_failed == 0) {
        fprintf(stderr, "no check ran: a test that checks nothing cannot fail\n");
        return 1;
    }
    return cp_test_failed ? 1 : 0;
}

#endif
