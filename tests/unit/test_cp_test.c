/* test_cp_test.c: the unit-test harness itself (tests/cp_test.h): cp_test_finish fails a test
 * that ran no check, and a test with a failed check; it passes one whose checks all passed. */
#include "cp_test.h"

/* cp_test_finish's status for these counts, the real counts kept aside and restored */
static int finish_with(int passed, int failed)
{
    int kept_passed = cp_test_passed, kept_failed = cp_test_failed;
    cp_test_passed = passed;
    cp_test_failed = failed;
    int rc = cp_test_finish();
    cp_test_passed = kept_passed;
    cp_test_failed = kept_failed;
    return rc;
}

int main(void)
{
    CHECK(finish_with(0, 0) != 0); /* nothing checked: a test that could not fail */
    CHECK(finish_with(1, 0) == 0);
    CHECK(finish_with(3, 1) != 0);
    CHECK(finish_with(0, 2) != 0);
    return cp_test_finish();
}
