/* fuzz_sweep.c: libFuzzer target for the sweep grammar: every parser of cp_sweep.h on arbitrary
 * text, with several limits; any crash, leak or sanitizer report is a bug. */
#include "cp_fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cp_sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *spec = cp_fuzz_text(data, size);
    if (!spec)
        return 0;
    static const char *const names[] = {"load", "store", "aos", "soa"};
    cp_status st;
    cp_sweep a = {0}, b = {0};
    uint64_t v;
    cp_status_clear(&st);
    if (cp_sweep_parse(spec, "--stride", 1, 4096, &a, &st) == CP_EXIT_OK && a.count) {
        const cp_sweep *dims[2] = {&a, &a};
        uint64_t n, at[2];
        if (cp_sweep_product_count(dims, 2, 100000, &n, &st) == CP_EXIT_OK && n)
            cp_sweep_product_at(dims, 2, n - 1, at);
    }
    cp_sweep_parse(spec, "--offset", 0, UINT64_MAX, &b, &st);
    cp_sweep_free(&a);
    cp_sweep_free(&b);
    cp_sweep_parse_names(spec, "--op", names, 4, &a, &st);
    cp_sweep_free(&a);
    cp_sweep_parse_u64(spec, "--reps", 1, 100000, &v, &st);
    cp_sweep_parse_bytes(spec, "--size", 4096, 16ull << 30, &v, &st);
    free(spec);
    return 0;
}
