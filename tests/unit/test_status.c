/* test_status.c: the status record (cp_status): a usage error with its hint, and the check of a
 * library call (CP_CHECK_RESULT) that the CUDA, cuBLAS and NVRTC check macros are made of. */
#include <string.h>

#include "base/cp_base.h"
#include "cp_test.h"

/* A library of this test: 0 is success, any other result has a name. */
typedef int cp_test_result;

static int cp_test_calls;

static cp_test_result cp_test_call(cp_test_result r)
{
    cp_test_calls++;
    return r;
}

static const char *cp_test_result_name(cp_test_result r)
{
    return r == 7 ? "SEVEN" : "OTHER";
}

/* Written as a library's own check macro is: the call's text taken before it is expanded. */
#define CP_TEST_TWICE(x) ((x)*2)
#define CP_TEST_CHECK(st, call)                                                                    \
    CP_CHECK_RESULT(st, cp_test_result, 0, #call, call, "%s (%d)",                                 \
                    cp_test_result_name(cp_result_), (int)cp_result_)

static int cp_test_checked(cp_test_result r, cp_status *st)
{
    CP_TEST_CHECK(st, cp_test_call(r));
    return CP_EXIT_OK;
}

static int cp_test_checked_macro(cp_test_result r, cp_status *st)
{
    CP_TEST_CHECK(st, cp_test_call(CP_TEST_TWICE(r)));
    return CP_EXIT_OK;
}

/* cp_test_checked(r): the call ran once; want is the status code returned and recorded,
 * message the start of the message ("": none). */
static void check_result(cp_test_result r, int want, const char *message)
{
    cp_status st;
    cp_status_clear(&st);
    cp_test_calls = 0;
    CHECK_EQ_U64(cp_test_checked(r, &st), want);
    CHECK_EQ_U64(cp_test_calls, 1);
    CHECK_EQ_U64(st.code, want);
    CHECK(strncmp(st.message, message, strlen(message)) == 0);
    CHECK(message[0] || !st.message[0]);
}

/* Success records nothing; a failure records the call as written, the result in the library's
 * words, then where (this file); a macro inside the call is shown as written. */
static void test_check(void)
{
    check_result(0, CP_EXIT_OK, "");
    check_result(7, CP_EXIT_RUNTIME, "cp_test_call(r) failed: SEVEN (7) at ");
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_test_checked(7, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "test_status.c:");
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_test_checked_macro(2, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "cp_test_call(CP_TEST_TWICE(r)) failed: OTHER (4) at ");
}

/* A usage error: message and hint, code CP_EXIT_USAGE; a NULL status is allowed. */
static void test_usage(void)
{
    cp_status st;
    cp_status_clear(&st);
    int rc = cp_status_usage(&st, "give a number", "--reps: '%s' is not %d..%d", "x", 1, 9);
    CHECK_USAGE_ERROR(rc, st, "--reps: 'x' is not 1..9");
    CHECK_EQ_U64(st.code, CP_EXIT_USAGE);
    CHECK(strcmp(st.message, "--reps: 'x' is not 1..9") == 0);
    CHECK(strcmp(st.hint, "give a number") == 0);
    /* a hint with a % is taken as it is, not as a format */
    cp_status_usage(&st, "e.g. (i % 32)", "bad");
    CHECK(strcmp(st.hint, "e.g. (i % 32)") == 0);
    CHECK_EQ_U64(cp_status_usage(NULL, "h", "m"), CP_EXIT_USAGE);
    CHECK_EQ_U64(cp_status_set(NULL, CP_EXIT_RUNTIME, "m"), CP_EXIT_RUNTIME);
}

int main(void)
{
    test_check();
    test_usage();
    return cp_test_finish();
}
