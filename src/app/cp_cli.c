/* cp_cli.c: parses coalprobe's command line with getopt_long and prints help, version and
 * the list of pattern families. */
#define _POSIX_C_SOURCE 200809L
#include "cp_cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/cp_report.h"
#include "model/cp_model.h"

enum {
    OPT_STRIDE = 256,
    OPT_OFFSET,
    OPT_WIDTH,
    OPT_OP,
    OPT_LAYOUT,
    OPT_FIELDS,
    OPT_FIELD,
    OPT_VARIANT,
    OPT_M,
    OPT_N,
    OPT_K,
    OPT_RUN, /* the OPT_* of the parameters follow the order of cp_param */
    OPT_SEED,
    OPT_SIZE,
    OPT_FORMAT,
    OPT_EXPLAIN,
    OPT_WARP,
    OPT_MODEL,
    OPT_DEVICE,
    OPT_REPS,
    OPT_NO_COUNTERS,
    OPT_REQUIRE_COUNTERS,
    OPT_CHECK,
    OPT_LIST,
    OPT_ALLOW_LARGE_SWEEP,
    OPT_INDEX,
    OPT_PARAM,
};

static const struct option cp_cli_options[] = {
    {"stride", required_argument, NULL, OPT_STRIDE},
    {"offset", required_argument, NULL, OPT_OFFSET},
    {"width", required_argument, NULL, OPT_WIDTH},
    {"op", required_argument, NULL, OPT_OP},
    {"layout", required_argument, NULL, OPT_LAYOUT},
    {"fields", required_argument, NULL, OPT_FIELDS},
    {"field", required_argument, NULL, OPT_FIELD},
    {"variant", required_argument, NULL, OPT_VARIANT},
    {"m", required_argument, NULL, OPT_M},
    {"n", required_argument, NULL, OPT_N},
    {"k", required_argument, NULL, OPT_K},
    {"run", required_argument, NULL, OPT_RUN},
    {"seed", required_argument, NULL, OPT_SEED},
    {"size", required_argument, NULL, OPT_SIZE},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"explain", no_argument, NULL, OPT_EXPLAIN},
    {"warp", required_argument, NULL, OPT_WARP},
    {"model", no_argument, NULL, OPT_MODEL},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"reps", required_argument, NULL, OPT_REPS},
    {"no-counters", no_argument, NULL, OPT_NO_COUNTERS},
    {"require-counters", no_argument, NULL, OPT_REQUIRE_COUNTERS},
    {"check", no_argument, NULL, OPT_CHECK},
    {"list", no_argument, NULL, OPT_LIST},
    {"allow-large-sweep", no_argument, NULL, OPT_ALLOW_LARGE_SWEEP},
    {"index", required_argument, NULL, OPT_INDEX},
    {"param", required_argument, NULL, OPT_PARAM},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {"verbose", no_argument, NULL, 'v'},
    {NULL, 0, NULL, 0},
};

/* One row per swept parameter: its option, the families it belongs to (a bit per family), its
 * default, and either numeric limits or a name list. */
typedef struct cp_param_spec {
    const char *option;
    unsigned families;
    const char *default_spec;
    uint64_t min, max;
    const char *const *names;
    size_t nnames;
} cp_param_spec;

static const char *const cp_op_names[] = {"load", "store"};
static const char *const cp_layout_names[] = {"aos", "soa"};
static const char *const cp_variant_names[] = {"naive", "coalesced", "smem", "cublas"};
static const char *const cp_transpose_names[] = {"naive", "tiled", "padded"};

#define CP_FAMILY_BIT(family) (1u << CP_FAMILY_##family)

static const cp_param_spec cp_param_specs[CP_PARAM_COUNT] = {
    [CP_PARAM_STRIDE] = {"--stride", CP_FAMILY_BIT(STRIDE) | CP_FAMILY_BIT(SMEM), "1", 1,
                         CP_STRIDE_MAX, NULL, 0},
    [CP_PARAM_OFFSET] = {"--offset", CP_FAMILY_BIT(STRIDE), "0", 0, CP_OFFSET_MAX, NULL, 0},
    [CP_PARAM_WIDTH] = {"--width",
                        CP_FAMILY_BIT(STRIDE) | CP_FAMILY_BIT(SMEM) | CP_FAMILY_BIT(EXPR), "4", 4,
                        32, NULL, 0},
    [CP_PARAM_OP] = {"--op", CP_FAMILY_BIT(STRIDE) | CP_FAMILY_BIT(SMEM) | CP_FAMILY_BIT(EXPR),
                     "load", 0, 0, cp_op_names, 2},
    [CP_PARAM_LAYOUT] = {"--layout", CP_FAMILY_BIT(LAYOUT), "all", 0, 0, cp_layout_names, 2},
    [CP_PARAM_FIELDS] = {"--fields", CP_FAMILY_BIT(LAYOUT), "4", 1, CP_FIELDS_MAX, NULL, 0},
    [CP_PARAM_FIELD] = {"--field", CP_FAMILY_BIT(LAYOUT), "0", 0, CP_FIELDS_MAX - 1, NULL, 0},
    [CP_PARAM_VARIANT] = {"--variant", CP_FAMILY_BIT(GEMM) | CP_FAMILY_BIT(TRANSPOSE), "all", 0, 0,
                          cp_variant_names, 4},
    [CP_PARAM_M] = {"--m", CP_FAMILY_BIT(GEMM) | CP_FAMILY_BIT(TRANSPOSE), "4096", 1,
                    CP_GEMM_DIM_MAX, NULL, 0},
    [CP_PARAM_N] = {"--n", CP_FAMILY_BIT(GEMM) | CP_FAMILY_BIT(TRANSPOSE), "4096", 1,
                    CP_GEMM_DIM_MAX, NULL, 0},
    [CP_PARAM_K] = {"--k", CP_FAMILY_BIT(GEMM), "4096", 1, CP_GEMM_DIM_MAX, NULL, 0},
    [CP_PARAM_RUN] = {"--run", CP_FAMILY_BIT(GATHER), "1", 1, 1ull << 32, NULL, 0},
    [CP_PARAM_SEED] = {"--seed", CP_FAMILY_BIT(GATHER), "1", 0, UINT32_MAX, NULL, 0},
};

/* Where a family's parameter differs from the table above: its default, limits or names. */
static const struct {
    cp_param param;
    cp_family family;
    cp_param_spec spec;
} cp_param_overrides[] = {
    {CP_PARAM_STRIDE,
     CP_FAMILY_SMEM,
     {"--stride", CP_FAMILY_BIT(SMEM), "1..33", 1, CP_SMEM_STRIDE_MAX, NULL, 0}},
    {CP_PARAM_VARIANT,
     CP_FAMILY_TRANSPOSE,
     {"--variant", CP_FAMILY_BIT(TRANSPOSE), "all", 0, 0, cp_transpose_names, 3}},
    {CP_PARAM_M,
     CP_FAMILY_TRANSPOSE,
     {"--m", CP_FAMILY_BIT(TRANSPOSE), "8192", 1, CP_TRANSPOSE_DIM_MAX, NULL, 0}},
    {CP_PARAM_N,
     CP_FAMILY_TRANSPOSE,
     {"--n", CP_FAMILY_BIT(TRANSPOSE), "8192", 1, CP_TRANSPOSE_DIM_MAX, NULL, 0}},
};

/* The spec of parameter p in family f. */
static const cp_param_spec *cp_cli_spec(cp_param p, cp_family f)
{
    for (size_t i = 0; i < sizeof cp_param_overrides / sizeof cp_param_overrides[0]; i++)
        if (cp_param_overrides[i].param == p && cp_param_overrides[i].family == f)
            return &cp_param_overrides[i].spec;
    return &cp_param_specs[p];
}

/* Checks the access widths of the family: 4, 8, 16 or 32 bytes (smem: up to 16, one shared
 * memory instruction per lane). */
static int cp_cli_check_widths(const cp_sweep *w, cp_family family, cp_status *st)
{
    for (size_t i = 0; i < w->count; i++) {
        uint64_t v = w->values[i];
        if (v != 4 && v != 8 && v != 16 && (v != 32 || family == CP_FAMILY_SMEM)) {
            cp_status_set(st, CP_EXIT_USAGE, "--width: '%llu' is not an access width%s",
                          (unsigned long long)v,
                          family == CP_FAMILY_SMEM ? " of shared memory" : "");
            if (family == CP_FAMILY_SMEM)
                cp_status_hint(st, "shared memory widths are 4, 8 or 16 bytes (LDS, LDS.64, "
                                   "LDS.128), e.g. --width 4,8,16");
            else
                cp_status_hint(st, "widths are 4, 8, 16 or 32 bytes, e.g. --width 4,8,16,32");
            return CP_EXIT_USAGE;
        }
    }
    return CP_EXIT_OK;
}

static int cp_cli_parse_param(cp_options *o, cp_param p, const char *spec, cp_status *st)
{
    const cp_param_spec *ps = cp_cli_spec(p, o->family);
    cp_sweep_free(&o->params[p]);
    if (ps->names)
        CP_TRY(cp_sweep_parse_names(spec, ps->option, ps->names, ps->nnames, &o->params[p], st));
    else
        CP_TRY(cp_sweep_parse(spec, ps->option, ps->min, ps->max, &o->params[p], st));
    if (p == CP_PARAM_WIDTH)
        return cp_cli_check_widths(&o->params[p], o->family, st);
    return CP_EXIT_OK;
}

/* --param NAME=SWEEP of the expr family: a name the expression may use and its values. */
static int cp_cli_parse_expr_param(cp_options *o, const char *arg, cp_status *st)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        cp_status_set(st, CP_EXIT_USAGE, "--param: '%s' is not NAME=VALUES", arg);
        cp_status_hint(st, "e.g. --param s=1..32 or --param k=4,8; the expression uses the name");
        return CP_EXIT_USAGE;
    }
    if (o->nexpr_params == CP_EXPR_MAX_PARAMS) {
        cp_status_set(st, CP_EXIT_USAGE, "--param: more than %d parameters", CP_EXPR_MAX_PARAMS);
        cp_status_hint(st, "an expression takes at most %d parameters", CP_EXPR_MAX_PARAMS);
        return CP_EXIT_USAGE;
    }
    size_t len = (size_t)(eq - arg);
    char name[sizeof o->expr_param_names[0]];
    if (len >= sizeof name)
        len = sizeof name - 1; /* too long a name is refused by the check below */
    memcpy(name, arg, len);
    name[len] = '\0';
    if ((size_t)(eq - arg) >= sizeof name) {
        cp_status_set(st, CP_EXIT_USAGE, "--param: the name '%.*s...' is too long", 16, arg);
        cp_status_hint(st, "names have at most %d characters", CP_EXPR_MAX_NAME);
        return CP_EXIT_USAGE;
    }
    CP_TRY(cp_expr_check_param_name(name, st));
    for (size_t k = 0; k < o->nexpr_params; k++)
        if (strcmp(o->expr_param_names[k], name) == 0) {
            cp_status_set(st, CP_EXIT_USAGE, "--param: '%s' is given twice", name);
            cp_status_hint(st, "give every value in one sweep: --param %s=1,2,4", name);
            return CP_EXIT_USAGE;
        }
    char option[sizeof name + 16];
    snprintf(option, sizeof option, "--param %s", name);
    cp_sweep *sw = &o->expr_params[o->nexpr_params];
    CP_TRY(cp_sweep_parse(eq + 1, option, 0, (uint64_t)INT64_MAX, sw, st));
    memcpy(o->expr_param_names[o->nexpr_params++], name, len + 1);
    return CP_EXIT_OK;
}

static int cp_cli_usage_error(cp_status *st, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records a usage error (message from fmt) with a hint, and returns CP_EXIT_USAGE. */
static int cp_cli_usage_error(cp_status *st, const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->message, sizeof st->message, fmt, ap);
    va_end(ap);
    st->code = CP_EXIT_USAGE;
    cp_status_hint(st, "%s", hint);
    return CP_EXIT_USAGE;
}

/* The family named by the first argument, if it is one. */
static int cp_cli_family(const char *word, cp_family *f)
{
    for (int i = 0; i < CP_FAMILY_COUNT; i++) {
        if (strcmp(word, cp_config_family_name((cp_family)i)) == 0) {
            *f = (cp_family)i;
            return 1;
        }
    }
    return 0;
}

static int cp_cli_apply(cp_options *o, int opt, const char *arg, int *given, cp_status *st)
{
    uint64_t v;
    switch (opt) {
    case OPT_STRIDE:
    case OPT_OFFSET:
    case OPT_WIDTH:
    case OPT_OP:
    case OPT_LAYOUT:
    case OPT_FIELDS:
    case OPT_FIELD:
    case OPT_VARIANT:
    case OPT_M:
    case OPT_N:
    case OPT_K:
    case OPT_RUN:
    case OPT_SEED:
        given[opt - OPT_STRIDE] = 1;
        return cp_cli_parse_param(o, (cp_param)(opt - OPT_STRIDE), arg, st);
    case OPT_SIZE:
        o->size_given = 1;
        return cp_sweep_parse_bytes(arg, "--size", CP_SIZE_MIN, CP_SIZE_MAX, &o->size_bytes, st);
    case OPT_FORMAT: {
        int f = cp_report_format_parse(arg);
        if (f < 0)
            return cp_cli_usage_error(st, "formats are table, json, csv and vega-lite",
                                      "--format: unknown format '%s'", arg);
        o->format = (cp_format)f;
        return CP_EXIT_OK;
    }
    case 'o':
        if (!*arg)
            return cp_cli_usage_error(st, "give a file name, or '-' for standard output",
                                      "--output: empty file name");
        o->output = arg;
        return CP_EXIT_OK;
    case OPT_EXPLAIN:
        o->explain = 1;
        return CP_EXIT_OK;
    case OPT_WARP:
        return cp_sweep_parse_u64(arg, "--warp", 0, UINT64_MAX / 2, &o->warp, st);
    case OPT_MODEL:
        o->model_only = 1;
        return CP_EXIT_OK;
    case OPT_DEVICE:
        CP_TRY(cp_sweep_parse_u64(arg, "--device", 0, 1023, &v, st));
        o->device = (int)v;
        return CP_EXIT_OK;
    case OPT_REPS:
        CP_TRY(cp_sweep_parse_u64(arg, "--reps", 1, 100000, &v, st));
        o->reps = (uint32_t)v;
        return CP_EXIT_OK;
    case OPT_NO_COUNTERS:
        o->no_counters = 1;
        return CP_EXIT_OK;
    case OPT_REQUIRE_COUNTERS:
        o->require_counters = 1;
        return CP_EXIT_OK;
    case OPT_CHECK:
        o->check = 1;
        return CP_EXIT_OK;
    case OPT_LIST:
        o->show_list = 1;
        return CP_EXIT_OK;
    case OPT_ALLOW_LARGE_SWEEP:
        o->allow_large_sweep = 1;
        return CP_EXIT_OK;
    case OPT_INDEX:
    case OPT_PARAM:
        if (o->family != CP_FAMILY_EXPR)
            return cp_cli_usage_error(st, "e.g. coalprobe expr --index '(i %% 32) * 1024 + i / 32'",
                                      "%s belongs to the expr family: write 'coalprobe expr %s'",
                                      opt == OPT_INDEX ? "--index" : "--param",
                                      opt == OPT_INDEX ? "--index EXPR" : "--param NAME=VALUES");
        if (opt == OPT_PARAM)
            return cp_cli_parse_expr_param(o, arg, st);
        o->index_text = arg;
        return CP_EXIT_OK;
    case 'h':
        o->show_help = 1;
        return CP_EXIT_OK;
    case 'V':
        o->show_version = 1;
        return CP_EXIT_OK;
    case 'v':
        o->verbose = 1;
        return CP_EXIT_OK;
    default:
        return cp_status_set(st, CP_EXIT_USAGE, "internal error: option %d", opt);
    }
}

/* Checks that combine several options. */
static int cp_cli_validate(cp_options *o, const int *given, cp_status *st)
{
    for (int p = 0; p < CP_PARAM_COUNT; p++) {
        if (given[p] && !(cp_param_specs[p].families & (1u << o->family))) {
            char owners[128] = "";
            size_t k = 0;
            for (int f = 0; f < CP_FAMILY_COUNT && k < sizeof owners; f++)
                if (cp_param_specs[p].families & (1u << f))
                    k += (size_t)snprintf(owners + k, sizeof owners - k, "%s'coalprobe %s'",
                                          k ? " or " : "", cp_config_family_name((cp_family)f));
            cp_status_set(st, CP_EXIT_USAGE, "%s does not apply to the %s family",
                          cp_param_specs[p].option, cp_config_family_name(o->family));
            cp_status_hint(st, "%s is a parameter of %s; see coalprobe --list",
                           cp_param_specs[p].option, owners);
            return CP_EXIT_USAGE;
        }
    }
    if (o->family == CP_FAMILY_LAYOUT) {
        const cp_sweep *fields = &o->params[CP_PARAM_FIELDS], *field = &o->params[CP_PARAM_FIELD];
        for (size_t i = 0; i < fields->count; i++)
            for (size_t j = 0; j < field->count; j++)
                if (field->values[j] >= fields->values[i]) {
                    cp_status_set(st, CP_EXIT_USAGE,
                                  "--field %llu does not exist in a record of --fields %llu",
                                  (unsigned long long)field->values[j],
                                  (unsigned long long)fields->values[i]);
                    cp_status_hint(st, "fields are numbered from 0 to fields-1");
                    return CP_EXIT_USAGE;
                }
    }
    if (o->explain && o->format != CP_FORMAT_TABLE) {
        cp_status_set(st, CP_EXIT_USAGE, "--explain draws text and takes no --format %s",
                      cp_report_format_name(o->format));
        cp_status_hint(st, "drop --format, or drop --explain for a %s report",
                       cp_report_format_name(o->format));
        return CP_EXIT_USAGE;
    }
    if (o->check && (o->model_only || o->no_counters))
        return cp_cli_usage_error(st, "--check compares measured counters with the model",
                                  "--check cannot be combined with %s",
                                  o->model_only ? "--model" : "--no-counters");
    if (o->no_counters && o->require_counters)
        return cp_cli_usage_error(st, "use one of the two",
                                  "--no-counters and --require-counters contradict each other");
    return CP_EXIT_OK;
}

int cp_cli_parse(int argc, char **argv, cp_options *o, cp_status *st)
{
    memset(o, 0, sizeof *o);
    o->family = CP_FAMILY_STRIDE;
    o->size_bytes = CP_SIZE_DEFAULT;
    o->format = CP_FORMAT_TABLE;
    o->reps = 20;
    int first = 1;
    if (argc > 1 && argv[1][0] != '-') {
        if (!cp_cli_family(argv[1], &o->family))
            return cp_cli_usage_error(
                st,
                "commands are stride (the default), layout, gemm, gather, smem, transpose, expr, "
                "compare and doctor",
                "unknown command '%s'", argv[1]);
        first = 2;
    }
    int given[CP_PARAM_COUNT] = {0};
    uint64_t seen = 0; /* the options with a value given so far */
    optind = 0;        /* full reset, so that the parser can run more than once (tests) */
    opterr = 0;
    /* getopt_long sees argv from the first option on, with argv[0] as its program name */
    char **args = argv + first - 1;
    int nargs = argc - first + 1;
    int opt;
    while ((opt = getopt_long(nargs, args, ":o:hVv", cp_cli_options, NULL)) != -1) {
        const char *word = args[optind - 1];
        if (opt == '?') {
            if (optopt)
                return cp_cli_usage_error(st, "see coalprobe --help", "unknown option '-%c'",
                                          optopt);
            return cp_cli_usage_error(st, "see coalprobe --help", "unknown option '%s'", word);
        }
        if (opt == ':')
            return cp_cli_usage_error(st, "see coalprobe --help", "option '%s' needs a value",
                                      word);
        /* every option with a value is given once, but --param (once per name) */
        int rc = opt == OPT_PARAM ? CP_EXIT_OK : cp_sweep_once(cp_cli_options, opt, &seen, st);
        if (rc != CP_EXIT_OK && opt >= OPT_STRIDE && opt < OPT_STRIDE + CP_PARAM_COUNT) {
            const cp_param_spec *ps = cp_cli_spec((cp_param)(opt - OPT_STRIDE), o->family);
            if (ps->names)
                cp_status_hint(st, "a sweep takes all its values in one option, e.g. %s %s,%s",
                               ps->option, ps->names[0], ps->names[1]);
            else
                cp_status_hint(st,
                               "a sweep takes all its values in one option, e.g. %s 1,2,4 or "
                               "1..8,16",
                               ps->option);
        }
        CP_TRY(rc);
        CP_TRY(cp_cli_apply(o, opt, optarg, given, st));
    }
    if (optind < nargs)
        return cp_cli_usage_error(st, "pattern parameters are options, e.g. --stride 1..32",
                                  "unexpected argument '%s'", args[optind]);
    if (!o->size_given && o->family == CP_FAMILY_GATHER)
        o->size_bytes = CP_GATHER_SIZE_DEFAULT;
    if (!o->size_given && o->family == CP_FAMILY_EXPR)
        o->size_bytes = CP_EXPR_SIZE_DEFAULT;
    if (o->size_given && (o->family == CP_FAMILY_GEMM || o->family == CP_FAMILY_TRANSPOSE)) {
        cp_status_set(st, CP_EXIT_USAGE, "--size does not apply to the %s family",
                      cp_config_family_name(o->family));
        cp_status_hint(st, o->family == CP_FAMILY_GEMM ? "GEMM sizes are --m, --n and --k"
                                                       : "the matrix is --m rows by --n columns");
        return CP_EXIT_USAGE;
    }
    if (o->size_given && o->family == CP_FAMILY_SMEM) {
        cp_status_set(st, CP_EXIT_USAGE, "--size does not apply to the smem family");
        cp_status_hint(st, "the shared-memory array is 32 x stride elements; the grid is fixed");
        return CP_EXIT_USAGE;
    }
    for (int p = 0; p < CP_PARAM_COUNT; p++)
        if (!given[p] && (cp_param_specs[p].families & (1u << o->family)))
            CP_TRY(cp_cli_parse_param(o, (cp_param)p,
                                      cp_cli_spec((cp_param)p, o->family)->default_spec, st));
    if (o->family == CP_FAMILY_EXPR && !o->show_help && !o->show_version && !o->show_list) {
        if (!o->index_text)
            return cp_cli_usage_error(st, "e.g. coalprobe expr --index '(i % 32) * 1024 + i / 32'",
                                      "expr needs --index EXPR: the element thread i accesses");
        const char *names[CP_EXPR_MAX_PARAMS];
        for (size_t k = 0; k < o->nexpr_params; k++)
            names[k] = o->expr_param_names[k];
        CP_TRY(cp_expr_parse(o->index_text, names, o->nexpr_params, &o->expr, st));
    }
    return cp_cli_validate(o, given, st);
}

int cp_cli_parse_compare(int argc, char **argv, cp_compare_options *o, cp_status *st)
{
    static const struct option options[] = {
        {"tolerance", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->tolerance = 0.05;
    optind = 0;
    opterr = 0;
    char **args = argv + 1; /* "compare" plays argv[0] */
    int nargs = argc - 1, opt;
    uint64_t seen = 0; /* the options with a value given so far: each is given once */
    while ((opt = getopt_long(nargs, args, ":o:h", options, NULL)) != -1) {
        const char *word = args[optind - 1];
        CP_TRY(cp_sweep_once(options, opt, &seen, st));
        switch (opt) {
        case 't':
            CP_TRY(cp_sweep_check_leading_zero(optarg, "--tolerance", st));
            CP_TRY(cp_compare_parse_tolerance(optarg, &o->tolerance, st));
            break;
        case 'f':
            if (strcmp(optarg, "json") != 0 && strcmp(optarg, "table") != 0)
                return cp_cli_usage_error(st, "compare writes table (text) or json",
                                          "--format: '%s' is not a format of compare", optarg);
            o->json = strcmp(optarg, "json") == 0;
            break;
        case 'o':
            o->output = optarg;
            break;
        case 'h':
            o->show_help = 1;
            return CP_EXIT_OK;
        case ':':
            return cp_cli_usage_error(st, "see coalprobe compare --help",
                                      "option '%s' needs a value", word);
        default:
            return cp_cli_usage_error(st, "see coalprobe compare --help",
                                      "unknown option '%s' of compare", word);
        }
    }
    if (nargs - optind != 2)
        return cp_cli_usage_error(st,
                                  "usage: coalprobe compare BASE.json NEW.json [--tolerance 5%]",
                                  "compare takes two reports, not %d", nargs - optind);
    o->base_path = args[optind];
    o->new_path = args[optind + 1];
    return CP_EXIT_OK;
}

void cp_cli_print_compare_help(FILE *out)
{
    fputs("Usage: coalprobe compare BASE.json NEW.json [options]\n"
          "\n"
          "Matches the rows of two JSON reports by pattern and configuration and prints what\n"
          "changed: counts must be equal, times and bandwidths within the tolerance.\n"
          "\n"
          "  --tolerance T     allowed change of times and bandwidths: 5%, 0.05 (default 5%)\n"
          "  --format FMT      table (text, default) or json\n"
          "  -o, --output FILE write the comparison to FILE (as reports: coalprobe --help)\n"
          "  -h, --help        this help\n"
          "\n"
          "Exit codes: 0 nothing regressed; 1 a report cannot be read; 2 usage error or not a\n"
          "coalprobe report; 3 something regressed.\n",
          out);
}

void cp_cli_free(cp_options *o)
{
    for (int p = 0; p < CP_PARAM_COUNT; p++)
        cp_sweep_free(&o->params[p]);
    for (size_t k = 0; k < o->nexpr_params; k++)
        cp_sweep_free(&o->expr_params[k]);
    cp_expr_free(o->expr);
    o->expr = NULL;
}

void cp_cli_print_help(FILE *out)
{
    fputs("coalprobe: predicts and measures how a warp's memory accesses coalesce into\n"
          "32-byte sectors and 128-byte lines.\n"
          "\n"
          "Usage: coalprobe [stride|layout|gemm|gather|smem|transpose|expr] [options]\n"
          "       coalprobe compare BASE.json NEW.json [--tolerance 5%]\n"
          "       coalprobe trace [options] -- PROGRAM [ARGS...]   (coalprobe trace --help)\n"
          "       coalprobe doctor [--format json]   what works on this machine, and the fixes\n"
          "\n"
          "Numeric parameters sweep: N, a..b, a..b:step, lists a,b,c and mixtures (1..8,16,32).\n"
          "Several swept parameters run every combination. Numbers are decimal, written\n"
          "without leading zeros (10, not 010: C would read it as octal). An option with a\n"
          "value is given once (a second --size is an error); --param once per name.\n"
          "\n"
          "stride (the default): thread i accesses element i*stride+offset\n"
          "  --stride S        elements between neighbouring threads (1..4096; default 1)\n"
          "  --offset O        elements of the access width skipped at the start (0..4096; 0)\n"
          "  --width W         bytes per element: 4, 8, 16 or 32 (default 4)\n"
          "  --op OP           load (strided read), store (strided write) or all (default load)\n"
          "  --size BYTES      useful bytes per buffer, K/M/G suffixes (default 256M)\n"
          "layout: thread i reads field f of record i, as AoS or SoA\n"
          "  --layout L        aos, soa or all (default all)\n"
          "  --fields F        4-byte fields per record (1..64; default 4)\n"
          "  --field F         field read (default 0)\n"
          "  --size BYTES      bytes of the field read over all records (default 256M)\n"
          "gemm: FP32 C = A*B, row-major, one thread per element of C\n"
          "  --variant V       naive, coalesced, smem (tiled), cublas or all (default all)\n"
          "  --m M, --n N, --k K  matrix sizes (1..65536; default 4096)\n"
          "gather: out[i] = in[idx[i]], idx a seeded permutation of runs of elements\n"
          "  --run R           contiguous elements kept together (default 1: random)\n"
          "  --seed S          the permutation's seed (default 1)\n"
          "  --size BYTES      bytes of in (default 64M)\n"
          "smem: shared memory, lane l at element l*stride: bank conflicts\n"
          "  --stride S        elements between lanes (1..64; default 1..33)\n"
          "  --width W         bytes per element: 4, 8 or 16 (default 4)\n"
          "  --op OP           load, store or all (default load)\n"
          "transpose: out (n x m) = in^T (m x n), 32 x 32 tiles\n"
          "  --variant V       naive, tiled (shared memory), padded (tile rows of 33) or all\n"
          "  --m M, --n N      rows and columns of in (1..65536; default 8192)\n"
          "expr: thread i accesses element EXPR of a buffer of n elements\n"
          "  --index EXPR      a C integer expression in i, n and parameters, e.g.\n"
          "                    '(i % 32) * 1024 + i / 32' (grammar: docs/expr.md)\n"
          "  --param NAME=V    a parameter of EXPR and its values (a sweep; up to 8)\n"
          "  --width W, --op OP, --size BYTES  as for stride (default size 64M)\n"
          "\n"
          "Output:\n"
          "  --format FMT      table, json, csv or vega-lite (a chart spec; default table)\n"
          "  -o, --output FILE write the report to FILE ('-' is standard output): a file\n"
          "                    is replaced whole once the report is complete (its mode\n"
          "                    kept; new files follow the umask); a link is followed; a\n"
          "                    FIFO or device such as /dev/null is written in place\n"
          "  --explain         draw which lanes of a warp land on which line and sector\n"
          "  --warp W          the warp --explain draws (default 0)\n"
          "\n"
          "Measurement:\n"
          "  --model           model only: never touch the GPU\n"
          "  --device N        the CUDA device to use (default 0)\n"
          "  --reps N          timed launches per configuration (default 20)\n"
          "  --no-counters     time only, never start CUPTI (so Nsight Compute can profile)\n"
          "  --require-counters  exit 1 when the hardware counters cannot be read\n"
          "  --check           exit 3 when measured requests or sectors differ from the model\n"
          "  --allow-large-sweep  run sweeps of more than 100,000 configurations\n"
          "  -v, --verbose     at the end, where the time went (device set-up, CUPTI session,\n"
          "                    fills, verification, timing, counter passes, report) on stderr\n"
          "\n"
          "Other:\n"
          "  --list            the pattern families and their parameters\n"
          "  -h, --help        this help\n"
          "  -V, --version     the version, CUDA and CUPTI, the GPU architectures built\n"
          "\n"
          "Examples:\n"
          "  coalprobe --stride 1..32                 sectors per request against stride\n"
          "  coalprobe --offset 0..31                 misaligned starts\n"
          "  coalprobe --width 4,8,16,32              scalar against vector accesses\n"
          "  coalprobe layout --fields 1..16          AoS against SoA\n"
          "  coalprobe gemm --m 2048                  the GEMM ladder, naive to cuBLAS\n"
          "  coalprobe smem                           bank conflicts against stride 1..33\n"
          "  coalprobe transpose                      naive, tiled and padded transpose\n"
          "  coalprobe expr --index 'i * s % n' --param s=1..8   your own indexing\n"
          "  coalprobe --stride 2 --explain           draw warp 0 over sectors and lines\n"
          "  coalprobe --stride 1..32 --format json | jq '.rows[].predicted.load'\n"
          "  coalprobe compare before.json after.json  what changed between two runs\n"
          "  coalprobe doctor                         will measuring work here? how to fix it\n"
          "\n"
          "Exit codes: 0 ok; 1 runtime error; 2 usage error (nothing was run or written);\n"
          "3 predicted and measured counts disagree (with --check); 130, 143 interrupted;\n"
          "141 standard output closed by its reader (e.g. | head), quietly.\n"
          "Without a CUDA device coalprobe prints the model's predictions and says so.\n",
          out);
}

void cp_cli_print_list(FILE *out)
{
    fputs("Pattern families and their parameters (defaults in brackets):\n"
          "  stride  --stride [1] --offset [0] --width [4] --op [load] --size [256M]\n"
          "          in: load of width bytes, out: store of width bytes; op picks the strided "
          "side\n"
          "  layout  --layout [all] --fields [4] --field [0] --size [256M]\n"
          "          in: load of one 4-byte field (AoS i*fields+field, SoA field*n+i), out: "
          "store\n"
          "  gemm    --variant [all] --m [4096] --n [4096] --k [4096]\n"
          "          variants naive, coalesced, smem (32x32 tiles in shared memory), cublas\n"
          "          A, B: loads once per step (per tile for smem) of k; C: one store\n"
          "  gather  --run [1] --seed [1] --size [64M]\n"
          "          idx: dense load, in: load at idx[i] (runs of `run` in random order), out\n"
          "  smem    --stride [1..33] --width [4] --op [load]\n"
          "          smem: shared load (or store) of lane l at element l*stride, 2048 times;\n"
          "          fill (or drain): the shared array around it; out: one word per thread\n"
          "  transpose --variant [all] --m [8192] --n [8192]\n"
          "          variants naive, tiled (32x32 tile in shared memory), padded (rows of 33)\n"
          "          in: load, tile: shared store and load (tiled, padded), out: store\n"
          "  expr    --index EXPR [--param NAME=VALUES]... --width [4] --op [load] --size [64M]\n"
          "          in: load at element EXPR (op load) or i, out: store at i or EXPR\n",
          out);
}

char *cp_cli_command_string(int argc, char **argv)
{
    return cp_text_shell_join(argc, argv, "coalprobe");
}
