/* cp_readonly_family.c: the readonly family's descriptor (the read-only data path, a lookup in a
 * table): its help, the parameters it sweeps, the values its configurations show in reports, and
 * its model (cp_readonly_model.c). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cp_family_def.h"
#include "cp_readonly_config.h"

CP_FAMILY_ACCESSORS(cp_readonly_config_of, variant, cp_readonly_variant)
CP_FAMILY_ACCESSORS(cp_readonly_config_of, lookup, cp_lookup)
CP_FAMILY_ACCESSORS(cp_readonly_config_of, table_bytes, uint64_t)

const char *const cp_readonly_variant_names[CP_READONLY_VARIANT_COUNT] = {"plain", "restrict",
                                                                          "ldg", "constant"};
const char *const cp_readonly_lookup_names[CP_LOOKUP_COUNT] = {"mod", "random", "broadcast"};

/* readonly: a table of whole 4-byte entries. */
static int cp_family_check_table(const cp_sweep *t, cp_status *st)
{
    for (size_t i = 0; i < t->count; i++)
        if (t->values[i] % 4) {
            cp_status_set(st, CP_EXIT_USAGE,
                          "--table: %llu bytes is not a whole number of 4-byte "
                          "entries",
                          (unsigned long long)t->values[i]);
            cp_status_hint(st, "give a multiple of 4 bytes, e.g. --table 4K..64M:x4");
            return CP_EXIT_USAGE;
        }
    return CP_EXIT_OK;
}

/* readonly: __constant__ memory holds 64 KB. */
static const char *cp_family_readonly_absent(const cp_config *c)
{
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    if (cfg->variant == CP_READONLY_VARIANT_CONSTANT && cfg->table_bytes > CP_TABLE_CONSTANT_MAX)
        return "the constant variant's table must fit the 64 KB of __constant__ memory";
    return NULL;
}

/* readonly's tables on a device: from 4 KB (far below any L1) by factors of 4 up to the first
 * size at least 4 times the device's L2 (far beyond it), 256 MB at the least. */
static int cp_family_table_on_device(const cp_family_param *p, uint64_t l2_bytes, char *spec,
                                     size_t len)
{
    if (strcmp(p->option, "--table") != 0)
        return 0;
    uint64_t top = 4096;
    while (top < 4 * l2_bytes && top < CP_TABLE_MAX / 4)
        top *= 4;
    if (top <= (256ull << 20))
        return 0;
    snprintf(spec, len, "4K..%" PRIu64 "M:x4", top >> 20);
    return 1;
}

static const cp_family_param cp_readonly_params[] = {
    CP_P_ALL("--variant", "V",
             "plain (const float *), restrict (const __restrict__), ldg (__ldg), constant "
             "(__constant__, tables up to 64K)",
             cp_readonly_variant_names, cp_family_set_variant),
    {.option = "--index",
     .arg = "I",
     .doc = "the lookup j(i): mod (i % entries), random (a hash of i), broadcast (one entry per "
            "warp)",
     .default_spec = "mod",
     CP_P_NAMES(cp_readonly_lookup_names),
     .set = cp_family_set_lookup},
    {.option = "--table",
     .arg = "BYTES",
     .doc = "table sizes in bytes, whole 4-byte entries, K/M/G suffixes; on a GPU the default "
            "goes up to 4x its L2 if that is more",
     .default_spec = "4K..256M:x4",
     .min = CP_TABLE_MIN,
     .max = CP_TABLE_MAX,
     .set = cp_family_set_table_bytes,
     .check = cp_family_check_table,
     .bytes = 1},
};
static const cp_family_field cp_readonly_fields[] = {
    CP_F_NAME("variant", variant, cp_readonly_variant_names),
    CP_F_NAME("index", lookup, cp_readonly_lookup_names),
    {"table_bytes", NULL, "table", CP_FIELD_BYTES, cp_family_get_table_bytes, NULL, 0,
     cp_family_set_table_bytes, "table (bytes)", "B"},
    CP_F_ELEMENTS,
};

const cp_family_desc cp_readonly_family = {
    .name = "readonly",
    .summary = "the read-only path, out[i] = table[j(i)]",
    .teaches = "The read-only data path: one lookup through a plain const float *, a "
               "const __restrict__ pointer, __ldg and __constant__ memory, with tables "
               "from 4 KB (in L1) to far beyond L2. The table shows the L1 and L2 hit "
               "rates and the instruction each variant compiled to (LDG.E, "
               "LDG.E.CONSTANT, LDC): __constant__ is as fast as global memory for a "
               "broadcast and serializes lanes that look up different entries.",
    .size_doc = "bytes of out: one lookup per 4 bytes",
    .examples = {{"coalprobe readonly", "every variant, tables 4K up to 4x the L2"},
                 {"coalprobe readonly --index random,broadcast --table 4K..64M:x4",
                  "gathers and broadcasts"}},
    .list = "table: load at entry j(i) (global, or __constant__ memory), out: store at i\n",
    .list_front = "",
    CP_PARAMS(cp_readonly_params),
    .help_order = {"--variant", "--table", "--index"},
    .size_default = CP_READONLY_SIZE_DEFAULT,
    .init = cp_family_init_words,
    CP_FIELDS(cp_readonly_fields),
    .describe = {"variant", "index", "table_bytes"},
    .table = {"variant", "index", "table_bytes"},
    .chart = {"table_bytes", "variant", "index"},
    .table_counts = CP_COUNTS_PATH,
    .requests_are_instructions = 1,
    .path_counters = 1,
    .device_default = cp_family_table_on_device,
    .model = &cp_readonly_model,
    .absent = cp_family_readonly_absent,
};
