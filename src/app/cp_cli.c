/* cp_cli.c: parses coalprobe's command line with getopt_long and prints the list of pattern
 * families (help: cp_commands.c, from the same tables). */
#define _POSIX_C_SOURCE 200809L
#include "cp_cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp_commands.h"
#include "report/cp_report.h"
#include "model/cp_model.h"

enum {
    OPT_SWEPT = 256, /* a parameter's option: OPT_SWEPT + its cp_param (cp_family.h) */
    OPT_INDEX = OPT_SWEPT + CP_PARAM_MAX, /* the expr family's expression, or the parameter
                                           * --index of a family that sweeps one */
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
    OPT_PARAM,
    OPT_DEVICES,
    OPT_MIXED,
    OPT_WIDE,
    OPT_COLOR,
    OPT_QUIET,
    OPT_MIN_SAMPLES,
    OPT_MAX_NOISE,
    OPT_MIN_TIME,
    OPT_MAX_TIME,
    OPT_EXPORT, /* --json FILE, ...: OPT_EXPORT + the index of cp_report_exporter_get */
};
#define CP_CLI_MAX_OPTIONS 112

static const struct option cp_cli_options[] = {
    {"size", required_argument, NULL, OPT_SIZE},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"explain", no_argument, NULL, OPT_EXPLAIN},
    {"warp", required_argument, NULL, OPT_WARP},
    {"model", no_argument, NULL, OPT_MODEL},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"devices", required_argument, NULL, OPT_DEVICES},
    {"mixed", no_argument, NULL, OPT_MIXED},
    {"reps", required_argument, NULL, OPT_REPS},
    {"min-samples", required_argument, NULL, OPT_MIN_SAMPLES},
    {"max-noise", required_argument, NULL, OPT_MAX_NOISE},
    {"min-time", required_argument, NULL, OPT_MIN_TIME},
    {"max-time", required_argument, NULL, OPT_MAX_TIME},
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
    {"wide", no_argument, NULL, OPT_WIDE},
    {"color", required_argument, NULL, OPT_COLOR},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {NULL, 0, NULL, 0},
};

/* 1 when `name` is an option of cp_cli_options (--index: the expression's and a parameter's). */
static int cp_cli_own_option(const char *name)
{
    for (size_t i = 0; cp_cli_options[i].name; i++)
        if (strcmp(cp_cli_options[i].name, name) == 0)
            return 1;
    return 0;
}

/* The families' parameters' options (each once: one option, whichever families sweep it), then
 * cp_cli_options, built once. */
static const struct option *cp_cli_base_options(void)
{
    static struct option base[CP_CLI_MAX_OPTIONS];
    if (!base[0].name) {
        size_t k = 0;
        for (cp_param p = 0; p < cp_param_count(); p++)
            if (!cp_cli_own_option(cp_param_option(p) + 2))
                base[k++] = (struct option){cp_param_option(p) + 2, required_argument, NULL,
                                            OPT_SWEPT + (int)p};
        for (size_t i = 0; cp_cli_options[i].name; i++) {
            if (k + 1 >= CP_CLI_MAX_OPTIONS)
                abort(); /* CP_CLI_MAX_OPTIONS is too small: a bug caught by every test */
            base[k++] = cp_cli_options[i];
        }
    }
    return base;
}

/* cp_cli_base_options and one option per exporter (--json FILE, ...), built once. */
static const struct option *cp_cli_all_options(void)
{
    static struct option all[CP_CLI_MAX_OPTIONS];
    if (!all[0].name) {
        if (cp_exports_getopt(all, CP_CLI_MAX_OPTIONS, cp_cli_base_options(),
                              cp_report_exporter_get, OPT_EXPORT) != 0)
            abort(); /* CP_CLI_MAX_OPTIONS is too small: a bug caught by every test */
    }
    return all;
}

/* The parameter option opt gives in o's family (0: none): a parameter's option, or --index
 * where the family sweeps a parameter of that option (elsewhere it is the expression's). */
static int cp_cli_param_of(const cp_options *o, int opt, cp_param *p)
{
    if (opt >= OPT_SWEPT && opt < OPT_SWEPT + (int)cp_param_count()) {
        *p = (cp_param)(opt - OPT_SWEPT);
        return 1;
    }
    return opt == OPT_INDEX && cp_param_find("--index", p) &&
           cp_family_param_of(cp_family_get(o->family), *p);
}

const struct option *cp_cli_option_table(void)
{
    return cp_cli_all_options();
}

/* The descriptor's entry for parameter p in family f; when f does not sweep p (an error
 * cp_cli_validate reports once the values are read), the first family's that does. */
static const cp_family_param *cp_cli_spec(cp_param p, cp_family f)
{
    const cp_family_param *ps = cp_family_param_of(cp_family_get(f), p);
    for (int g = 0; !ps && cp_family_get((cp_family)g); g++)
        ps = cp_family_param_of(cp_family_get((cp_family)g), p);
    return ps;
}

int cp_cli_parse_param(cp_options *o, cp_param p, const char *spec, cp_status *st)
{
    const cp_family_param *ps = cp_cli_spec(p, o->family);
    const char *option = cp_param_option(p);
    cp_sweep_free(&o->params[p]);
    if (ps->names)
        CP_TRY(cp_sweep_parse_names(spec, option, ps->names, ps->nnames, &o->params[p], st));
    else if (ps->bytes)
        CP_TRY(cp_sweep_parse_sizes(spec, option, ps->min, ps->max, &o->params[p], st));
    else
        CP_TRY(cp_sweep_parse(spec, option, ps->min, ps->max, &o->params[p], st));
    return ps->check ? ps->check(&o->params[p], st) : CP_EXIT_OK;
}

/* --devices LIST|all: "all" (resolved against the machine when the run starts), or device
 * numbers as a sweep writes them (0,1 or 0..3). */
static int cp_cli_parse_devices(cp_options *o, const char *arg, cp_status *st)
{
    if (strcmp(arg, "all") == 0) {
        o->devices_all = 1;
        o->ndevices = 0;
        return CP_EXIT_OK;
    }
    cp_sweep list = {0};
    CP_TRY(cp_sweep_parse(arg, "--devices", 0, 1023, &list, st));
    if (list.count > CP_MAX_DEVICES) {
        cp_sweep_free(&list);
        cp_status_set(st, CP_EXIT_USAGE, "--devices: %zu devices, at most %d", list.count,
                      CP_MAX_DEVICES);
        cp_status_hint(st, "name the devices to use, e.g. --devices 0,1, or --devices all");
        return CP_EXIT_USAGE;
    }
    o->devices_all = 0;
    o->ndevices = list.count;
    for (size_t i = 0; i < list.count; i++)
        o->devices[i] = (int)list.values[i];
    cp_sweep_free(&list);
    return CP_EXIT_OK;
}

/* --param NAME=SWEEP of a family that takes an index (the expr family): a name the expression
 * may use and its values. */
static int cp_cli_parse_index_param(cp_options *o, const char *arg, cp_status *st)
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

/* The field an option without a value sets to 1; NULL when opt has a value. */
static int *cp_cli_flag(cp_options *o, int opt)
{
    switch (opt) {
    case OPT_EXPLAIN:
        return &o->explain;
    case OPT_MODEL:
        return &o->model_only;
    case OPT_NO_COUNTERS:
        return &o->no_counters;
    case OPT_REQUIRE_COUNTERS:
        return &o->require_counters;
    case OPT_CHECK:
        return &o->check;
    case OPT_MIXED:
        return &o->mixed_devices;
    case OPT_LIST:
        return &o->show_list;
    case OPT_ALLOW_LARGE_SWEEP:
        return &o->allow_large_sweep;
    case 'h':
        return &o->show_help;
    case 'V':
        return &o->show_version;
    case 'v':
        return &o->verbose;
    case OPT_WIDE:
        return &o->wide;
    case OPT_QUIET:
        return &o->quiet;
    default:
        return NULL;
    }
}

/* --index and --param of a family that takes an index expression (takes_index: the expr
 * family); --index is also a parameter of a family that sweeps one (readonly's lookup). */
static int cp_cli_apply_index(cp_options *o, int opt, const char *arg, cp_status *st)
{
    if (!cp_family_get(o->family)->takes_index)
        return cp_status_usage(
            st, "e.g. coalprobe expr --index '(i % 32) * 1024 + i / 32'",
            "%s belongs to the expr family: write 'coalprobe expr %s'%s",
            opt == OPT_INDEX ? "--index" : "--param",
            opt == OPT_INDEX ? "--index EXPR" : "--param NAME=VALUES",
            opt == OPT_INDEX ? " (or 'coalprobe readonly --index mod,random,broadcast')" : "");
    if (opt == OPT_PARAM)
        return cp_cli_parse_index_param(o, arg, st);
    o->index_text = arg;
    return CP_EXIT_OK;
}

/* --reps and the stopping rule's options (docs/measurement.md, "Timing"). */
static int cp_cli_apply_sampling(cp_options *o, int opt, const char *arg, cp_status *st)
{
    cp_sampling *r = &o->sampling;
    uint64_t v;
    if (opt == OPT_REPS) {
        CP_TRY(cp_sweep_parse_u64(arg, "--reps", 1, CP_SAMPLING_MAX_COUNT, &v, st));
        r->reps = (uint32_t)v;
        return CP_EXIT_OK;
    }
    static const char *const names[] = {"--min-samples", "--max-noise", "--min-time", "--max-time"};
    const char *name = names[opt - OPT_MIN_SAMPLES];
    if (!o->sampling_option)
        o->sampling_option = name;
    switch (opt) {
    case OPT_MIN_SAMPLES:
        CP_TRY(cp_sweep_parse_u64(arg, name, 1, CP_SAMPLING_MAX_COUNT, &v, st));
        r->min_samples = (uint32_t)v;
        return CP_EXIT_OK;
    case OPT_MAX_NOISE:
        return cp_sampling_parse_noise(arg, &r->max_noise, st);
    case OPT_MIN_TIME:
        return cp_sampling_parse_seconds(arg, name, &r->min_time_s, st);
    default:
        return cp_sampling_parse_seconds(arg, name, &r->max_time_s, st);
    }
}

/* Applies option opt with its value arg to o; given: the pattern parameters given so far. */
static int cp_cli_apply(cp_options *o, int opt, const char *arg, int *given, cp_status *st)
{
    int *flag = cp_cli_flag(o, opt);
    if (flag) {
        *flag = 1;
        return CP_EXIT_OK;
    }
    cp_param p;
    if (cp_cli_param_of(o, opt, &p)) {
        given[p] = 1;
        return cp_cli_parse_param(o, p, arg, st);
    }
    uint64_t v;
    switch (opt) {
    case OPT_SIZE:
        o->size_given = 1;
        return cp_sweep_parse_bytes(arg, "--size", CP_SIZE_MIN, CP_SIZE_MAX, &o->size_bytes, st);
    case OPT_FORMAT: {
        int f = cp_report_format_parse(arg);
        if (f < 0)
            return cp_status_usage(st, "formats are table, json, csv, vega-lite and html",
                                   "--format: unknown format '%s'", arg);
        o->format = (cp_format)f;
        return CP_EXIT_OK;
    }
    case 'o':
        if (!*arg)
            return cp_status_usage(st, "give a file name, or '-' for standard output",
                                   "--output: empty file name");
        CP_TRY(cp_output_check_name("-o", arg, NULL, st));
        o->output = arg;
        return CP_EXIT_OK;
    case OPT_WARP:
        return cp_sweep_parse_u64(arg, "--warp", 0, UINT64_MAX / 2, &o->warp, st);
    case OPT_DEVICE:
        CP_TRY(cp_sweep_parse_u64(arg, "--device", 0, 1023, &v, st));
        o->device = (int)v;
        o->device_given = 1;
        return CP_EXIT_OK;
    case OPT_DEVICES:
        return cp_cli_parse_devices(o, arg, st);
    case OPT_REPS:
    case OPT_MIN_SAMPLES:
    case OPT_MAX_NOISE:
    case OPT_MIN_TIME:
    case OPT_MAX_TIME:
        return cp_cli_apply_sampling(o, opt, arg, st);
    case OPT_INDEX:
    case OPT_PARAM:
        return cp_cli_apply_index(o, opt, arg, st);
    case OPT_COLOR: {
        int mode = cp_term_color_parse(arg);
        if (mode < 0)
            return cp_status_usage(st, "--color takes never, auto (the default) or always",
                                   "--color: '%s' is not never, auto or always", arg);
        o->color = (cp_color_mode)mode;
        return CP_EXIT_OK;
    }
    default:
        if (opt >= OPT_EXPORT && cp_report_exporter_get((size_t)(opt - OPT_EXPORT))) {
            const cp_exporter *x = cp_report_exporter_get((size_t)(opt - OPT_EXPORT));
            return cp_exports_add(&o->exports, x->option, arg, (int)x->format, st);
        }
        return cp_status_set(st, CP_EXIT_USAGE, "internal error: option %d", opt);
    }
}

/* Checks that combine several options. */
/* --reps against the stopping rule's options, and --min-time against --max-time. */
static int cp_cli_validate_sampling(const cp_options *o, cp_status *st)
{
    const cp_sampling *r = &o->sampling;
    if (r->reps && o->sampling_option) {
        cp_status_set(st, CP_EXIT_USAGE,
                      "--reps fixes the count of timed launches: %s belongs to the stopping rule",
                      o->sampling_option);
        cp_status_hint(st, "drop --reps to let the rule decide, or drop %s", o->sampling_option);
        return CP_EXIT_USAGE;
    }
    if (r->min_time_s > r->max_time_s)
        return cp_status_usage(st,
                               "--min-time is spent before --max-time may stop a noisy "
                               "configuration: give a --max-time at least as long",
                               "--min-time %g s is longer than --max-time %g s", r->min_time_s,
                               r->max_time_s);
    return CP_EXIT_OK;
}

/* --device, --devices and --mixed together. */
static int cp_cli_validate_devices(const cp_options *o, cp_status *st)
{
    int several = o->devices_all || o->ndevices > 0;
    if (several && o->device_given)
        return cp_status_usage(st, "--device N measures on one GPU, --devices LIST on several",
                               "--device and --devices cannot be combined");
    if (o->mixed_devices && !several)
        return cp_status_usage(st, "e.g. --devices all --mixed",
                               "--mixed applies to a run over several GPUs (--devices)");
    if (several && o->explain)
        return cp_status_usage(st, "--explain reads one GPU's kernels: use --device N",
                               "--explain cannot be combined with --devices");
    return CP_EXIT_OK;
}

static int cp_cli_validate(cp_options *o, const int *given, cp_status *st)
{
    const cp_family_desc *fd = cp_family_get(o->family);
    for (cp_param p = 0; p < cp_param_count(); p++) {
        if (given[p] && !cp_family_param_of(fd, p)) {
            char owners[128] = "";
            size_t k = 0;
            for (int f = 0; cp_family_get((cp_family)f) && k < sizeof owners; f++)
                if (cp_family_param_of(cp_family_get((cp_family)f), p))
                    k += (size_t)snprintf(owners + k, sizeof owners - k, "%s'coalprobe %s'",
                                          k ? " or " : "", cp_config_family_name((cp_family)f));
            cp_status_set(st, CP_EXIT_USAGE, "%s does not apply to the %s family",
                          cp_param_option(p), fd->name);
            cp_status_hint(st, "%s is a parameter of %s; see coalprobe --list", cp_param_option(p),
                           owners);
            return CP_EXIT_USAGE;
        }
    }
    if (fd->check) {
        const cp_sweep *values[CP_FAMILY_PARAMS_MAX];
        for (size_t i = 0; i < fd->nparams && i < CP_FAMILY_PARAMS_MAX; i++)
            values[i] = &o->params[cp_param_index(&fd->params[i])];
        CP_TRY(fd->check(values, st));
    }
    if (o->explain && o->format != CP_FORMAT_TABLE) {
        cp_status_set(st, CP_EXIT_USAGE, "--explain draws text and takes no --format %s",
                      cp_report_format_name(o->format));
        cp_status_hint(st, "drop --format, or drop --explain for a %s report",
                       cp_report_format_name(o->format));
        return CP_EXIT_USAGE;
    }
    if (o->explain && o->exports.n) {
        cp_status_set(st, CP_EXIT_USAGE, "--explain draws pictures and writes no --%s report",
                      o->exports.items[0].option);
        cp_status_hint(st, "drop --explain for a report, or --%s for the pictures",
                       o->exports.items[0].option);
        return CP_EXIT_USAGE;
    }
    if (o->check && (o->model_only || o->no_counters))
        return cp_status_usage(st, "--check compares measured counters with the model",
                               "--check cannot be combined with %s",
                               o->model_only ? "--model" : "--no-counters");
    if (o->no_counters && o->require_counters)
        return cp_status_usage(st, "use one of the two",
                               "--no-counters and --require-counters contradict each other");
    CP_TRY(cp_cli_validate_sampling(o, st));
    return cp_cli_validate_devices(o, st);
}

/* Reads the family command in argv[1] when there is one; *first: the index of the first option. */
static int cp_cli_parse_command(int argc, char **argv, cp_options *o, int *first, cp_status *st)
{
    *first = 1;
    if (argc <= 1 || argv[1][0] == '-')
        return CP_EXIT_OK;
    if (!cp_family_find(argv[1], &o->family))
        return cp_commands_unknown(argv[1], st);
    *first = 2;
    return CP_EXIT_OK;
}

/* Refuses an option getopt_long could not read (opt '?' or ':'; word: as written), and a second
 * value of an option given once (but --param, once per name): with a hint for the sweeps. */
static int cp_cli_check_option(const cp_options *o, int opt, const char *word, uint64_t *seen,
                               cp_status *st)
{
    if (opt == '?') {
        if (optopt)
            return cp_status_usage(st, "see coalprobe --help", "unknown option '-%c'", optopt);
        return cp_commands_unknown_option(word, cp_cli_base_options(), o->family, st);
    }
    if (opt == ':')
        return cp_status_usage(st, "see coalprobe --help", "option '%s' needs a value", word);
    int rc = opt == OPT_PARAM ? CP_EXIT_OK : cp_sweep_once(cp_cli_all_options(), opt, seen, st);
    cp_param p = 0;
    int swept = opt == OPT_INDEX
                    ? !cp_family_get(o->family)->takes_index && cp_param_find("--index", &p)
                    : cp_cli_param_of(o, opt, &p);
    if (rc != CP_EXIT_OK && swept) {
        const cp_family_param *ps = cp_cli_spec(p, o->family);
        if (ps->names)
            cp_status_hint(st, "a sweep takes all its values in one option, e.g. %s %s,%s",
                           cp_param_option(p), ps->names[0], ps->names[1]);
        else
            cp_status_hint(st,
                           "a sweep takes all its values in one option, e.g. %s 1,2,4 or "
                           "1..8,16",
                           cp_param_option(p));
    }
    return rc;
}

/* After the options: the family's defaults (size, the parameters not given) and its
 * expression, parsed with its parameters' names. */
static int cp_cli_complete(cp_options *o, const int *given, cp_status *st)
{
    const cp_family_desc *fd = cp_family_get(o->family);
    if (!o->size_given && fd->size_default)
        o->size_bytes = fd->size_default;
    if (o->size_given && !fd->size_default) {
        cp_status_set(st, CP_EXIT_USAGE, "--size does not apply to the %s family", fd->name);
        cp_status_hint(st, "%s", fd->size_hint);
        return CP_EXIT_USAGE;
    }
    for (size_t i = 0; i < fd->nparams; i++) {
        cp_param p = cp_param_index(&fd->params[i]);
        if (!given[p])
            CP_TRY(cp_cli_parse_param(o, p, fd->params[i].default_spec, st));
    }
    memcpy(o->param_given, given, sizeof o->param_given);
    if (fd->takes_index && !o->show_help && !o->show_version && !o->show_list) {
        if (!o->index_text)
            return cp_status_usage(st, "e.g. coalprobe expr --index '(i % 32) * 1024 + i / 32'",
                                   "expr needs --index EXPR: the element thread i accesses");
        const char *names[CP_EXPR_MAX_PARAMS];
        for (size_t k = 0; k < o->nexpr_params; k++)
            names[k] = o->expr_param_names[k];
        CP_TRY(cp_expr_parse(o->index_text, names, o->nexpr_params, &o->expr, st));
    }
    return CP_EXIT_OK;
}

int cp_cli_parse(int argc, char **argv, cp_options *o, cp_status *st)
{
    memset(o, 0, sizeof *o);
    o->family = (cp_family)0; /* the first family of the table, stride, is the default */
    o->size_bytes = CP_SIZE_DEFAULT;
    o->format = CP_FORMAT_TABLE;
    cp_sampling_defaults(&o->sampling);
    int first;
    CP_TRY(cp_cli_parse_command(argc, argv, o, &first, st));
    int given[CP_PARAM_MAX] = {0};
    uint64_t seen = 0; /* the options with a value given so far */
    optind = 0;        /* full reset, so that the parser can run more than once (tests) */
    opterr = 0;
    /* getopt_long sees argv from the first option on, with argv[0] as its program name */
    char **args = argv + first - 1;
    int nargs = argc - first + 1;
    int opt;
    while ((opt = getopt_long(nargs, args, ":o:hVv", cp_cli_all_options(), NULL)) != -1) {
        CP_TRY(cp_cli_check_option(o, opt, args[optind - 1], &seen, st));
        CP_TRY(cp_cli_apply(o, opt, optarg, given, st));
    }
    if (optind < nargs)
        return cp_status_usage(st, "pattern parameters are options, e.g. --stride 1..32",
                               "unexpected argument '%s'", args[optind]);
    CP_TRY(cp_cli_complete(o, given, st));
    CP_TRY(cp_cli_validate(o, given, st));
    if (o->format == CP_FORMAT_HTML && !o->explain && !o->show_help && !o->show_version &&
        !o->show_list)
        return cp_output_check_page(o->output, st); /* not 60 KB of markup on a terminal */
    return CP_EXIT_OK;
}

static const struct option cp_cli_compare_options[] = {
    {"tolerance", required_argument, NULL, 't'},
    {"format", required_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

const struct option *cp_cli_compare_option_table(void)
{
    return cp_cli_compare_options;
}

int cp_cli_parse_compare(int argc, char **argv, cp_compare_options *o, cp_status *st)
{
    const struct option *options = cp_cli_compare_options;
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
            if (strcmp(optarg, "json") != 0 && strcmp(optarg, "table") != 0 &&
                strcmp(optarg, "html") != 0)
                return cp_status_usage(st, "compare writes table (text), json or html",
                                       "--format: '%s' is not a format of compare", optarg);
            o->json = strcmp(optarg, "json") == 0;
            o->html = strcmp(optarg, "html") == 0;
            break;
        case 'o':
            CP_TRY(cp_output_check_name("-o", optarg, NULL, st));
            o->output = optarg;
            break;
        case 'h':
            o->show_help = 1;
            return CP_EXIT_OK;
        case ':':
            return cp_status_usage(st, "see coalprobe compare --help", "option '%s' needs a value",
                                   word);
        default:
            return cp_status_usage(st, "see coalprobe compare --help",
                                   "unknown option '%s' of compare", word);
        }
    }
    if (nargs - optind != 2)
        return cp_status_usage(st, "usage: coalprobe compare BASE.json NEW.json [--tolerance 5%]",
                               "compare takes two reports, not %d", nargs - optind);
    o->base_path = args[optind];
    o->new_path = args[optind + 1];
    if (strcmp(o->base_path, "-") == 0 && strcmp(o->new_path, "-") == 0)
        return cp_status_usage(st, "give the other report as a file: coalprobe compare BASE.json -",
                               "compare reads one report from standard input (-), not both");
    return CP_EXIT_OK;
}

void cp_cli_print_compare_help(FILE *out)
{
    cp_help_print_command(out, cp_commands_compare());
}

void cp_cli_free(cp_options *o)
{
    for (cp_param p = 0; p < CP_PARAM_MAX; p++)
        cp_sweep_free(&o->params[p]);
    for (size_t k = 0; k < o->nexpr_params; k++)
        cp_sweep_free(&o->expr_params[k]);
    cp_expr_free(o->expr);
    o->expr = NULL;
}

void cp_cli_print_help(FILE *out)
{
    cp_commands_print_help(out);
}

/* --list's lines: parameters past this column go on the next line. */
#define CP_CLI_LIST_WIDTH 80

void cp_cli_print_list(FILE *out)
{
    fputs("Pattern families and their parameters (defaults in brackets):\n", out);
    for (int f = 0; cp_family_get((cp_family)f); f++) {
        const cp_family_desc *d = cp_family_get((cp_family)f);
        int col = fprintf(out, "  %-7s %s", d->name, d->list_front);
        /* the parameters in the order of its help, then --size, wrapped under the first */
        const cp_family_param *ps;
        char word[160];
        for (size_t i = 0;; i++) {
            if ((ps = cp_family_help_param(d, i)) != NULL)
                snprintf(word, sizeof word, "%s [%s]", ps->option, ps->default_spec);
            else if (d->size_default)
                snprintf(word, sizeof word, "--size [%lluM]",
                         (unsigned long long)(d->size_default >> 20));
            else
                break;
            if (i > 0 && col + 1 + (int)strlen(word) > CP_CLI_LIST_WIDTH)
                col = fprintf(out, "\n          %s", word) - 1;
            else
                col += fprintf(out, "%s%s", i ? " " : "", word);
            if (!ps)
                break;
        }
        fputc('\n', out);
        /* the description, each line indented under the parameters */
        for (const char *line = d->list; *line;) {
            const char *end = strchr(line, '\n');
            size_t len = end ? (size_t)(end - line) : strlen(line);
            fprintf(out, "          %.*s\n", (int)len, line);
            line += len + (end ? 1 : 0);
        }
    }
}

char *cp_cli_command_string(int argc, char **argv)
{
    return cp_text_shell_join(argc, argv, "coalprobe");
}

int cp_cli_wants_json(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--format=json") == 0)
            return 1;
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc && strcmp(argv[i + 1], "json") == 0)
            return 1;
    }
    return 0;
}
