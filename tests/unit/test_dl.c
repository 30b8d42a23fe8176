/* test_dl.c: loading a shared library on demand (cp_dl): a library with every function, one
 * that lacks one, and one that cannot be loaded. */
#include <dlfcn.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "base/cp_base.h"
#include "cp_test.h"

typedef double (*cp_test_fn)(double);

/* libm has cos and sqrt: the library comes back with both functions looked up. */
static void test_load_all(void)
{
    cp_test_fn c = NULL, s = NULL;
    const cp_dl_symbol syms[] = {{(void **)&c, "cos"}, {(void **)&s, "sqrt"}};
    const char *missing = "not set";
    void *lib = cp_dl_load("libm.so.6", syms, CP_COUNT_OF(syms), &missing);
    CHECK(lib != NULL);
    CHECK(missing == NULL);
    CHECK(c && c(0.0) == 1.0);
    CHECK(s && s(4.0) == 2.0);
    if (lib)
        dlclose(lib);
}

/* A function the library lacks: NULL, and its name, the first missing one. */
static void test_load_missing(void)
{
    void *c = NULL, *x = NULL, *y = NULL;
    const cp_dl_symbol syms[] = {
        {&c, "cos"}, {&x, "cp_test_no_such_function"}, {&y, "cp_test_nor_this_one"}};
    const char *missing = NULL;
    CHECK(cp_dl_load("libm.so.6", syms, CP_COUNT_OF(syms), &missing) == NULL);
    CHECK(missing && strcmp(missing, "cp_test_no_such_function") == 0);
}

/* A library that cannot be loaded: NULL, no missing name, dlerror() says why. */
static void test_load_absent(void)
{
    void *c = NULL;
    const cp_dl_symbol syms[] = {{&c, "cos"}};
    const char *missing = "not set";
    CHECK(cp_dl_load("/nonexistent/libcp_test.so", syms, CP_COUNT_OF(syms), &missing) == NULL);
    CHECK(missing == NULL);
    const char *why = dlerror();
    CHECK_STR_CONTAINS(why ? why : "", "libcp_test.so");
}

int main(void)
{
    test_load_all();
    test_load_missing();
    test_load_absent();
    return cp_test_finish();
}
