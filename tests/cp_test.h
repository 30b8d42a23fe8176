/* cp_test.h: a minimal unit-test harness: CHECK macros that count and report failures, and a
 * closing line "N passed, N failed" that ctest's log shows. */
#ifndef CP_TEST_H
#define CP_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
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

/* Prints the closing line and gives main's exit status. */
static inline int cp_test_finish(void)
{
    printf("%d passed, %d failed\n", cp_test_passed, cp_test_failed);
    return cp_test_failed ? 1 : 0;
}

#endif
