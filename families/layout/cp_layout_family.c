/* cp_layout_family.c: the layout family's descriptor (one field of a record, as AoS or SoA): its
 * help, the parameters it sweeps, the values its configurations show in reports, and its model
 * (cp_layout_model.c). */
#include "cp_family_def.h"
#include "cp_layout_config.h"

CP_FAMILY_ACCESSORS(cp_layout_config_of, layout, cp_layout)
CP_FAMILY_ACCESSORS(cp_layout_config_of, fields, uint32_t)
CP_FAMILY_ACCESSORS(cp_layout_config_of, field, uint32_t)

const char *const cp_layout_names[CP_LAYOUT_COUNT] = {"aos", "soa"};

/* layout: the field read exists in every record. */
/* layout: values[1] and values[2] are --fields and --field (cp_layout_params). */
static int cp_family_check_layout(const cp_sweep *const values[], cp_status *st)
{
    const cp_sweep *fields = values[1], *field = values[2];
    for (size_t i = 0; i < fields->count; i++)
        for (size_t j = 0; j < field->count; j++)
            if (field->values[j] >= fields->values[i]) {
                cp_status_set(
                    st, CP_EXIT_USAGE, "--field %llu does not exist in a record of --fields %llu",
                    (unsigned long long)field->values[j], (unsigned long long)fields->values[i]);
                cp_status_hint(st, "fields are numbered from 0 to fields-1");
                return CP_EXIT_USAGE;
            }
    return CP_EXIT_OK;
}

static const cp_family_param cp_layout_params[] = {
    CP_P_ALL("--layout", "L", "aos (array of structs), soa (struct of arrays)", cp_layout_names,
             cp_family_set_layout),
    CP_P_DIM("--fields", "F", "4-byte fields per record", "4", CP_LAYOUT_FIELDS_MAX,
             cp_family_set_fields),
    {.option = "--field",
     .arg = "F",
     .doc = "the field read, below --fields",
     .default_spec = "0",
     .max = CP_LAYOUT_FIELDS_MAX - 1,
     .set = cp_family_set_field},
};
static const cp_family_field cp_layout_fields[] = {
    CP_F_NAME("layout", layout, cp_layout_names),
    CP_F_U64_TITLED("fields", fields, "fields per record (4 bytes each)", NULL),
    CP_F_U64("field", field),
    CP_F_ELEMENTS,
};

const cp_family_desc cp_layout_family = {
    .name = "layout",
    .summary = "thread i reads field f of record i, as AoS or SoA",
    .teaches = "Array of structs against struct of arrays. In AoS the lanes of a warp read "
               "one field of neighbouring records, a record's width apart, so a request "
               "moves more sectors the wider the record (up to 32); in SoA that field of "
               "every record lies together and a request moves 4 sectors whatever the "
               "record.",
    .size_doc = "bytes of the field read over all records",
    .examples = {{"coalprobe layout --fields 1..16", "AoS against SoA as records grow"},
                 {"coalprobe layout --layout aos --explain", "the lanes over sectors"}},
    .list = "in: load of one 4-byte field (AoS i*fields+field, SoA field*n+i), out: "
            "store\n",
    .list_front = "",
    CP_PARAMS(cp_layout_params),
    .size_default = CP_SIZE_DEFAULT,
    .check = cp_family_check_layout,
    .init = cp_family_init_words,
    CP_FIELDS(cp_layout_fields),
    .describe = {"layout", "fields", "field"},
    .table = {"layout", "fields", "field"},
    .chart = {"fields", "field", "layout"},
    .table_counts = CP_COUNTS_SIDES,
    .requests_are_instructions = 1,
    .model = &cp_layout_model,
};
