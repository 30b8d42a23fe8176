/* cp_trace_main.c: coalprobe trace: the command line, then the program run under the injection
 * library (or recorded raw files read back with --from-raw), the report written after the
 * program ended (and the reports beside it), the gate, and the exit status (the program's when it
 * failed). One file of over 800 lines: every step reads the parsed command line (cp_trace_cli)
 * and the signal that stops the report side, which stay private to it. */
#define _POSIX_C_SOURCE 200809L
#include "cp_trace.h"
#include "cp_trace_launch.h"
#include "cp_trace_prefetch.h"
#include "cp_trace_report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inject/cp_inject.h"
#include "report/cp_report.h"

#define CP_TRACE_TOP_DEFAULT 5
#define CP_TRACE_TOP_MAX 1000000

enum {
    CP_TRACE_OPT_TOP = 256,
    CP_TRACE_OPT_KERNEL,
    CP_TRACE_OPT_MIN_REQUESTS,
    CP_TRACE_OPT_MAX_SPR,
    CP_TRACE_OPT_MAX_EXCESS,
    CP_TRACE_OPT_MIN_COVERAGE,
    CP_TRACE_OPT_FORMAT,
    CP_TRACE_OPT_RAW_DIR,
    CP_TRACE_OPT_FROM_RAW,
    CP_TRACE_OPT_KERNEL_COUNTERS,
    CP_TRACE_OPT_GROUP_BY,
    CP_TRACE_OPT_RANK_SPREAD,
    CP_TRACE_OPT_PYTHON_FRAMES,
    CP_TRACE_OPT_PYTHON_STACK,
    CP_TRACE_OPT_NO_SOURCE,
    CP_TRACE_OPT_COUNTER_LAUNCHES,
    CP_TRACE_OPT_ALL_LAUNCHES,
    CP_TRACE_OPT_LAUNCH_SKIP,
    CP_TRACE_OPT_LAUNCH_COUNT,
    CP_TRACE_OPT_NVTX_INCLUDE,
    CP_TRACE_OPT_CAPTURE_RANGE,
    CP_TRACE_OPT_INSTRUCTIONS,
    CP_TRACE_OPT_EXPORT, /* --json FILE, ...: + the index of cp_trace_exporter_get */
};
#define CP_TRACE_MAX_OPTIONS 40

#define CP_TRACE_RANK_SPREAD_DEFAULT 0.25
#define CP_TRACE_MAX_FROM_RAW 256

/* The report side's phases, timed for --verbose (cp_phase), in the order they run. */
static const cp_phase cp_trace_phases[] = {CP_PHASE_TRACE_LOAD, CP_PHASE_TRACE_DEMANGLE,
                                           CP_PHASE_TRACE_NVDISASM, CP_PHASE_TRACE_ANALYZE,
                                           CP_PHASE_TRACE_WRITE};

typedef struct cp_trace_cli {
    cp_trace_options report;
    cp_trace_format format;
    const char *output;
    const char *raw_dir;
    const char *from_raw;
    int show_help;
    int verbose;
    const char *kernel_set;    /* --kernel-counters: lean or full */
    const char *python_frames; /* --python-frames: user or all */
    int python_stack;          /* --python-stack */
    int no_source;             /* --no-source: html without sources */
    /* what the injection library counts (cp_inject_select.h), passed through the environment:
     * the option that set it (for --from-raw's message) and the value, as given */
    const char *collect_option;
    const char *counter_launches; /* --counter-launches N, or "all" for --all-launches */
    const char *launch_skip, *launch_count, *nvtx_include, *capture_range;
    const char *instructions;                         /* --instructions every|sampled */
    const char *from_raw_dirs[CP_TRACE_MAX_FROM_RAW]; /* --from-raw DIR [DIR...] */
    size_t nfrom_raw;
    char **program; /* argv of the program, NULL-terminated; NULL with --from-raw */
    int nprogram;
    cp_exports exports; /* --json FILE, --csv FILE, --chrome-trace FILE */
} cp_trace_cli;

static void cp_trace_print_help(FILE *out)
{
    cp_help_print_command(out, cp_trace_help());
}

/* A decimal integer in [0, max] with nothing after it. */
static int cp_trace_parse_count(const char *opt, const char *s, uint64_t max, uint64_t *out,
                                cp_status *st)
{
    CP_TRY(cp_sweep_check_leading_zero(s, opt, st)); /* decimal, as every number */
    char *end = NULL;
    errno = 0;
    unsigned long long v = (s[0] >= '0' && s[0] <= '9') ? strtoull(s, &end, 10) : 0;
    if (!end || *end || errno || v > max) {
        cp_status_set(st, CP_EXIT_USAGE, "%s: '%s' is not a whole number from 0 to %llu", opt, s,
                      (unsigned long long)max);
        cp_status_hint(st, "see coalprobe trace --help");
        return CP_EXIT_USAGE;
    }
    *out = v;
    return CP_EXIT_OK;
}

/* A finite number in (lo, hi] (lo_open) or [lo, hi], nothing after it; `what` names the
 * range in the message ("a number above 0"). */
static int cp_trace_parse_real(const char *opt, const char *s, double lo, int lo_open, double hi,
                               const char *what, double *out, cp_status *st)
{
    CP_TRY(cp_sweep_check_leading_zero(s, opt, st)); /* decimal, as every number */
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v < lo || (lo_open && v == lo) || v > hi) {
        cp_status_set(st, CP_EXIT_USAGE, "%s: '%s' is not %s", opt, s, what);
        cp_status_hint(st, "see coalprobe trace --help");
        return CP_EXIT_USAGE;
    }
    *out = v;
    return CP_EXIT_OK;
}

/* The options of trace, for getopt_long. */
static const struct option cp_trace_long_options[] = {
    {"top", required_argument, NULL, CP_TRACE_OPT_TOP},
    {"kernel", required_argument, NULL, CP_TRACE_OPT_KERNEL},
    {"min-requests", required_argument, NULL, CP_TRACE_OPT_MIN_REQUESTS},
    {"max-sectors-per-request", required_argument, NULL, CP_TRACE_OPT_MAX_SPR},
    {"max-excess-pct", required_argument, NULL, CP_TRACE_OPT_MAX_EXCESS},
    {"min-coverage", required_argument, NULL, CP_TRACE_OPT_MIN_COVERAGE},
    {"format", required_argument, NULL, CP_TRACE_OPT_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"raw-dir", required_argument, NULL, CP_TRACE_OPT_RAW_DIR},
    {"from-raw", required_argument, NULL, CP_TRACE_OPT_FROM_RAW},
    {"kernel-counters", required_argument, NULL, CP_TRACE_OPT_KERNEL_COUNTERS},
    {"group-by", required_argument, NULL, CP_TRACE_OPT_GROUP_BY},
    {"rank-spread", required_argument, NULL, CP_TRACE_OPT_RANK_SPREAD},
    {"python-frames", required_argument, NULL, CP_TRACE_OPT_PYTHON_FRAMES},
    {"python-stack", no_argument, NULL, CP_TRACE_OPT_PYTHON_STACK},
    {"no-source", no_argument, NULL, CP_TRACE_OPT_NO_SOURCE},
    {"counter-launches", required_argument, NULL, CP_TRACE_OPT_COUNTER_LAUNCHES},
    {"all-launches", no_argument, NULL, CP_TRACE_OPT_ALL_LAUNCHES},
    {"launch-skip", required_argument, NULL, CP_TRACE_OPT_LAUNCH_SKIP},
    {"launch-count", required_argument, NULL, CP_TRACE_OPT_LAUNCH_COUNT},
    {"nvtx-include", required_argument, NULL, CP_TRACE_OPT_NVTX_INCLUDE},
    {"capture-range", required_argument, NULL, CP_TRACE_OPT_CAPTURE_RANGE},
    {"instructions", required_argument, NULL, CP_TRACE_OPT_INSTRUCTIONS},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* cp_trace_long_options and one option per exporter (--json FILE, ...), built once. */
static const struct option *cp_trace_all_options(void)
{
    static struct option all[CP_TRACE_MAX_OPTIONS];
    if (!all[0].name) {
        if (cp_exports_getopt(all, CP_TRACE_MAX_OPTIONS, cp_trace_long_options,
                              cp_trace_exporter_get, CP_TRACE_OPT_EXPORT) != 0)
            abort(); /* CP_TRACE_MAX_OPTIONS is too small: a bug every test catches */
    }
    return all;
}

const struct option *cp_trace_option_table(void)
{
    return cp_trace_all_options();
}

/* --group-by, --rank-spread, --python-frames, --python-stack. */
static int cp_trace_parse_where_option(int opt, cp_trace_cli *c, cp_status *st)
{
    static const char *const by[] = {"kernel", "line", "callsite", "range"};
    switch (opt) {
    case CP_TRACE_OPT_GROUP_BY:
        for (size_t i = 0; i < CP_COUNT_OF(by); i++)
            if (strcmp(optarg, by[i]) == 0) {
                c->report.group_by = (int)i; /* CP_TRACE_GROUP_* in this order */
                return CP_EXIT_OK;
            }
        return cp_status_usage(st,
                               "group by kernel, line (the innermost user Python line), callsite "
                               "or range (the NVTX range path)",
                               "--group-by: '%s' is not kernel, line, callsite or range", optarg);
    case CP_TRACE_OPT_RANK_SPREAD:
        return cp_trace_parse_real("--rank-spread", optarg, 0, 0, 1000,
                                   "a number from 0 to 1000 (0.25: 25%)", &c->report.rank_spread,
                                   st);
    case CP_TRACE_OPT_PYTHON_FRAMES:
        if (strcmp(optarg, "user") != 0 && strcmp(optarg, "all") != 0)
            return cp_status_usage(st,
                                   "user skips the standard library and site-packages; all takes "
                                   "the innermost frame, whatever it is",
                                   "--python-frames: '%s' is not user or all", optarg);
        c->python_frames = optarg;
        return CP_EXIT_OK;
    default:
        c->python_stack = 1;
        return CP_EXIT_OK;
    }
}

/* What the traced program counts: --counter-launches, --all-launches, --launch-skip,
 * --launch-count, --nvtx-include, --capture-range, --instructions. */
static int cp_trace_parse_collect_option(int opt, cp_trace_cli *c, cp_status *st)
{
    static const char *const names[] = {"--counter-launches", "--all-launches", "--launch-skip",
                                        "--launch-count",     "--nvtx-include", "--capture-range",
                                        "--instructions"};
    uint64_t v;
    c->collect_option = names[opt - CP_TRACE_OPT_COUNTER_LAUNCHES];
    switch (opt) {
    case CP_TRACE_OPT_COUNTER_LAUNCHES:
        if (c->counter_launches && strcmp(c->counter_launches, "all") == 0)
            return cp_status_usage(st, "--all-launches counts every launch's counters",
                                   "--counter-launches and --all-launches together");
        CP_TRY(cp_trace_parse_count("--counter-launches", optarg, UINT32_MAX, &v, st));
        c->counter_launches = optarg;
        return CP_EXIT_OK;
    case CP_TRACE_OPT_ALL_LAUNCHES:
        if (c->counter_launches)
            return cp_status_usage(st, "--all-launches counts every launch's counters",
                                   "--counter-launches and --all-launches together");
        c->counter_launches = "all";
        return CP_EXIT_OK;
    case CP_TRACE_OPT_LAUNCH_SKIP:
        CP_TRY(cp_trace_parse_count("--launch-skip", optarg, UINT64_MAX - 1, &v, st));
        c->launch_skip = optarg;
        return CP_EXIT_OK;
    case CP_TRACE_OPT_LAUNCH_COUNT:
        CP_TRY(cp_trace_parse_count("--launch-count", optarg, UINT64_MAX - 1, &v, st));
        if (v == 0)
            return cp_status_usage(st, "--launch-count N counts N launches of each kernel",
                                   "--launch-count: 0 would count nothing");
        c->launch_count = optarg;
        return CP_EXIT_OK;
    case CP_TRACE_OPT_NVTX_INCLUDE:
        if (!optarg[0])
            return cp_status_usage(st, "name the NVTX range, e.g. --nvtx-include train_step",
                                   "--nvtx-include: an empty range name");
        c->nvtx_include = optarg;
        return CP_EXIT_OK;
    case CP_TRACE_OPT_INSTRUCTIONS:
        if (strcmp(optarg, "every") != 0 && strcmp(optarg, "sampled") != 0)
            return cp_status_usage(st,
                                   "every (default) counts every counted launch per instruction; "
                                   "sampled only the launches with per-kernel counters",
                                   "--instructions: '%s' is not every or sampled", optarg);
        c->instructions = optarg;
        return CP_EXIT_OK;
    default:
        if (strcmp(optarg, "profiler-api") != 0)
            return cp_status_usage(st,
                                   "profiler-api counts only between the program's "
                                   "cudaProfilerStart and cudaProfilerStop",
                                   "--capture-range: '%s' is not profiler-api", optarg);
        c->capture_range = optarg;
        return CP_EXIT_OK;
    }
}

/* The injection library reads what it counts from the environment it inherits. */
static int cp_trace_collect_env(const cp_trace_cli *c, cp_status *st)
{
    const struct {
        const char *name, *value;
    } env[] = {
        {"COALPROBE_TRACE_KERNEL", c->report.kernel_regex},
        {"COALPROBE_TRACE_COUNTER_LAUNCHES", c->counter_launches},
        {"COALPROBE_TRACE_LAUNCH_SKIP", c->launch_skip},
        {"COALPROBE_TRACE_LAUNCH_COUNT", c->launch_count},
        {"COALPROBE_TRACE_NVTX_INCLUDE", c->nvtx_include},
        {"COALPROBE_TRACE_CAPTURE_RANGE", c->capture_range},
        {"COALPROBE_TRACE_INSTRUCTIONS", c->instructions},
    };
    for (size_t i = 0; i < CP_COUNT_OF(env); i++) {
        int r = env[i].value ? setenv(env[i].name, env[i].value, 1) : unsetenv(env[i].name);
        if (r != 0)
            return cp_status_set(st, CP_EXIT_RUNTIME, "trace: setenv: %s", strerror(errno));
    }
    return CP_EXIT_OK;
}

/* --format: table or an exporter's format. */
static int cp_trace_parse_format(cp_trace_cli *c, cp_status *st)
{
    for (size_t i = 0; cp_trace_format_get(i); i++)
        if (strcmp(optarg, cp_trace_format_get(i)->option) == 0) {
            c->format = (cp_trace_format)cp_trace_format_get(i)->format;
            return CP_EXIT_OK;
        }
    return cp_status_usage(st, "trace writes table, json, csv, chrome-trace, vega-lite or html",
                           "--format: '%s' is not a format of trace", optarg);
}

/* Applies one option getopt_long returned (word: the option as written). */
static int cp_trace_parse_option(int opt, const char *word, cp_trace_cli *c, cp_status *st)
{
    uint64_t v;
    switch (opt) {
    case CP_TRACE_OPT_TOP:
        CP_TRY(cp_trace_parse_count("--top", optarg, CP_TRACE_TOP_MAX, &v, st));
        c->report.top = (size_t)v;
        break;
    case CP_TRACE_OPT_KERNEL:
        c->report.kernel_regex = optarg;
        break;
    case CP_TRACE_OPT_MIN_REQUESTS:
        CP_TRY(cp_trace_parse_count("--min-requests", optarg, UINT64_MAX, &c->report.min_requests,
                                    st));
        break;
    case CP_TRACE_OPT_MAX_SPR:
        CP_TRY(cp_trace_parse_real("--max-sectors-per-request", optarg, 0, 1, INFINITY,
                                   "a number above 0", &c->report.max_sectors_per_request, st));
        break;
    case CP_TRACE_OPT_MAX_EXCESS:
        CP_TRY(cp_trace_parse_real("--max-excess-pct", optarg, 0, 0, 100,
                                   "a percentage from 0 to 100", &c->report.max_excess_pct, st));
        break;
    case CP_TRACE_OPT_MIN_COVERAGE:
        CP_TRY(cp_trace_parse_real("--min-coverage", optarg, 0, 0, 1,
                                   "a fraction from 0 to 1 (0.9: 90%)", &c->report.min_coverage,
                                   st));
        break;
    case CP_TRACE_OPT_FORMAT:
        return cp_trace_parse_format(c, st);
    case 'o':
        CP_TRY(cp_output_check_name("-o", optarg, NULL, st));
        c->output = optarg;
        break;
    case CP_TRACE_OPT_RAW_DIR:
        c->raw_dir = optarg;
        break;
    case CP_TRACE_OPT_FROM_RAW:
        c->from_raw = optarg;
        c->from_raw_dirs[c->nfrom_raw++] = optarg;
        break;
    case CP_TRACE_OPT_KERNEL_COUNTERS:
        if (strcmp(optarg, "lean") != 0 && strcmp(optarg, "full") != 0)
            return cp_status_usage(st,
                                   "lean counts each launch in one pass; full adds requests, "
                                   "bytes and shared wavefronts at 5 passes a launch",
                                   "--kernel-counters: '%s' is not lean or full", optarg);
        c->kernel_set = optarg;
        break;
    case CP_TRACE_OPT_GROUP_BY:
    case CP_TRACE_OPT_RANK_SPREAD:
    case CP_TRACE_OPT_PYTHON_FRAMES:
    case CP_TRACE_OPT_PYTHON_STACK:
        return cp_trace_parse_where_option(opt, c, st);
    case CP_TRACE_OPT_NO_SOURCE:
        c->no_source = 1;
        break;
    case 'v':
        c->verbose = 1;
        break;
    case 'h':
        c->show_help = 1;
        return CP_EXIT_OK;
    case ':':
        return cp_status_usage(st, "see coalprobe trace --help", "option '%s' needs a value", word);
    default:
        if (opt >= CP_TRACE_OPT_COUNTER_LAUNCHES && opt <= CP_TRACE_OPT_INSTRUCTIONS)
            return cp_trace_parse_collect_option(opt, c, st);
        if (opt >= CP_TRACE_OPT_EXPORT &&
            cp_trace_exporter_get((size_t)(opt - CP_TRACE_OPT_EXPORT))) {
            const cp_exporter *x = cp_trace_exporter_get((size_t)(opt - CP_TRACE_OPT_EXPORT));
            return cp_exports_add(&c->exports, x->option, optarg, (int)x->format, st);
        }
        return cp_status_usage(st,
                               "see coalprobe trace --help; put the program after --, e.g. "
                               "coalprobe trace -- ./app --its-option",
                               "unknown option '%s' of trace", word);
    }
    return CP_EXIT_OK;
}

/* A bad --kernel expression is refused before anything runs. */
static int cp_trace_check_kernel_regex(const cp_trace_cli *c, cp_status *st)
{
    if (c->report.kernel_regex) {
        regex_t re;
        int e = regcomp(&re, c->report.kernel_regex, REG_EXTENDED | REG_NOSUB);
        if (e != 0) {
            char why[256];
            regerror(e, &re, why, sizeof why);
            return cp_status_usage(st,
                                   "--kernel takes a POSIX extended regular expression matched "
                                   "against the demangled kernel name, e.g. 'transpose|copy'",
                                   "--kernel: '%s' is not a regular expression: %s",
                                   c->report.kernel_regex, why);
        }
        regfree(&re);
    }
    return CP_EXIT_OK;
}

/* --instructions sampled counts per instruction the launches with per-kernel counters: refused
 * where there are none (--counter-launches 0, COALPROBE_TRACE_MODE=instructions) or where every
 * launch is replayed and its instructions scaled (--kernel-counters full). */
static int cp_trace_check_instructions(const cp_trace_cli *c, cp_status *st)
{
    if (!c->instructions || strcmp(c->instructions, "sampled") != 0)
        return CP_EXIT_OK;
    const char *mode = getenv("COALPROBE_TRACE_MODE");
    if (c->counter_launches && strcmp(c->counter_launches, "0") == 0)
        return cp_status_usage(st,
                               "--instructions sampled counts the launches with per-kernel "
                               "counters only; give --counter-launches N above 0",
                               "--instructions sampled with --counter-launches 0 would count "
                               "nothing");
    if (c->kernel_set && strcmp(c->kernel_set, "full") == 0)
        return cp_status_usage(st,
                               "--kernel-counters full replays every launch and scales its "
                               "instruction counts; use the lean set with --instructions sampled",
                               "--instructions sampled cannot be used with --kernel-counters full");
    if (mode && strcmp(mode, "instructions") == 0)
        return cp_status_usage(st,
                               "COALPROBE_TRACE_MODE=instructions takes no per-kernel counters, "
                               "and --instructions sampled counts only launches that have them: "
                               "unset it",
                               "--instructions sampled cannot be used with "
                               "COALPROBE_TRACE_MODE=instructions");
    return CP_EXIT_OK;
}

/* --from-raw's directories, each once: DIR DIR, DIR ./DIR/ and a link to DIR are one directory
 * (the same device and inode), which would otherwise count every process twice. */
static void cp_trace_unique_dirs(cp_trace_cli *c)
{
    struct stat seen[CP_TRACE_MAX_FROM_RAW];
    size_t kept = 0;
    for (size_t i = 0; i < c->nfrom_raw; i++) {
        struct stat sb;
        int known = stat(c->from_raw_dirs[i], &sb) == 0, twice = 0;
        for (size_t k = 0; known && k < kept && !twice; k++)
            twice = seen[k].st_dev == sb.st_dev && seen[k].st_ino == sb.st_ino;
        if (twice)
            continue;
        if (known)
            seen[kept] = sb;
        else
            memset(&seen[kept], 0xff, sizeof seen[kept]); /* prepare says what it is */
        c->from_raw_dirs[kept++] = c->from_raw_dirs[i];
    }
    c->nfrom_raw = kept;
}

/* Parses argv (argv[0] is "trace"); the program is what follows the options. */
static int cp_trace_parse(int argc, char **argv, cp_trace_cli *c, cp_status *st)
{
    memset(c, 0, sizeof *c);
    c->report.top = CP_TRACE_TOP_DEFAULT;
    c->report.max_sectors_per_request = NAN;
    c->report.max_excess_pct = NAN;
    c->report.min_coverage = NAN;
    c->report.rank_spread = CP_TRACE_RANK_SPREAD_DEFAULT;
    c->format = CP_TRACE_FORMAT_TABLE;
    optind = 0; /* full reset: the parser may run more than once (tests) */
    opterr = 0;
    int opt;
    uint64_t seen = 0; /* seen: the options with a value given so far, each given once */
    /* "+": options end at the first non-option, which is the program */
    for (;;) {
        while ((opt = getopt_long(argc, argv, "+:o:hv", cp_trace_all_options(), NULL)) != -1) {
            const char *word = argv[optind - 1];
            CP_TRY(cp_sweep_once(cp_trace_all_options(), opt, &seen, st));
            CP_TRY(cp_trace_parse_option(opt, word, c, st));
            if (c->show_help)
                return CP_EXIT_OK;
        }
        /* --from-raw DIR DIR...: the words after it up to the next option are directories */
        if (!c->from_raw || optind >= argc || argv[optind][0] == '-')
            break;
        if (c->nfrom_raw == CP_TRACE_MAX_FROM_RAW)
            return cp_status_usage(st, "report fewer directories at a time",
                                   "--from-raw: more than %d directories", CP_TRACE_MAX_FROM_RAW);
        c->from_raw_dirs[c->nfrom_raw++] = argv[optind++];
    }
    cp_trace_unique_dirs(c);
    CP_TRY(cp_trace_check_kernel_regex(c, st));
    CP_TRY(cp_trace_check_instructions(c, st));
    c->program = argv + optind;
    c->nprogram = argc - optind;
    if (c->from_raw && c->nprogram > 0) /* only after --: the words before it are directories */
        return cp_status_usage(st, "--from-raw DIR reports recorded raw files and runs nothing",
                               "--from-raw runs no program, and '%s' was given", c->program[0]);
    if (c->from_raw && (c->python_frames || c->python_stack))
        return cp_status_usage(st, "they choose what a traced program records",
                               "%s cannot be used with --from-raw",
                               c->python_frames ? "--python-frames" : "--python-stack");
    if (c->from_raw && c->collect_option)
        return cp_status_usage(st,
                               "it chooses what a traced program counts; the raw files say what "
                               "was counted",
                               "%s cannot be used with --from-raw", c->collect_option);
    if (c->from_raw && c->raw_dir)
        return cp_status_usage(st, "--raw-dir keeps the raw files of a program run here",
                               "%s cannot be used with --from-raw", "--raw-dir");
    if (c->from_raw)
        c->program = NULL;
    return CP_EXIT_OK;
}

/* ---- command lines ------------------------------------------------------------------------ */

static char *cp_trace_join(int n, char *const *words, const char *first)
{
    char *rest = cp_text_shell_join(n, words, NULL);
    if (!first || !rest)
        return rest;
    /* first stands before the words as it is (it may hold spaces of its own) */
    size_t len = strlen(first) + 1 + strlen(rest) + 1;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, n > 0 ? "%s %s" : "%s%s", first, rest);
    free(rest);
    return s;
}

/* ---- the raw directory -------------------------------------------------------------------- */

/* 1 when dir holds a raw-*.tsv file. */
static int cp_trace_has_raw_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int found = 0;
    size_t prefix = strlen(CP_TRACE_RAW_PREFIX);
    for (struct dirent *e; !found && (e = readdir(d)) != NULL;)
        found = strncmp(e->d_name, CP_TRACE_RAW_PREFIX, prefix) == 0;
    closedir(d);
    return found;
}

/* --raw-dir DIR: created when missing; an existing one must be a directory without raw files. */
static int cp_trace_prepare_raw_dir(const char *dir, cp_status *st)
{
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        if (errno == ENOENT && mkdir(dir, 0755) == 0)
            return CP_EXIT_OK;
        cp_status_set(st, CP_EXIT_USAGE, "--raw-dir: cannot create %s: %s", dir, strerror(errno));
        cp_status_hint(st, "name a directory that can be created, or an empty one");
        return CP_EXIT_USAGE;
    }
    if (!S_ISDIR(sb.st_mode))
        return cp_status_usage(st, "name a directory that can be created, or an empty one",
                               "--raw-dir: %s is not a directory", dir);
    if (cp_trace_has_raw_files(dir))
        return cp_status_usage(st,
                               "the raw files of an earlier run would mix with this one's: name an "
                               "empty directory (or report the old ones with --from-raw)",
                               "--raw-dir: %s already holds raw trace files", dir);
    return CP_EXIT_OK;
}

/* The temporary directory of the raw files that coalprobe made: its path, and a descriptor of
 * it opened as it was made, with its identity, so that only it is ever emptied and removed, never
 * what a traced program put in its place (a link to another directory). */
typedef struct cp_trace_temp {
    char path[4200]; /* "" while none was made */
    int fd;          /* O_DIRECTORY, opened right after mkdtemp; -1 when none */
    dev_t dev;
    ino_t ino;
} cp_trace_temp;

/* A new temporary directory for the raw files, in $TMPDIR or /tmp, opened (not through a link)
 * and its identity kept. */
static int cp_trace_make_temp_dir(cp_trace_temp *d, cp_status *st)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !tmp[0])
        tmp = "/tmp";
    if ((size_t)snprintf(d->path, sizeof d->path, "%s/coalprobe-trace-XXXXXX", tmp) >=
        sizeof d->path) {
        d->path[0] = '\0';
        return cp_status_set(st, CP_EXIT_RUNTIME, "trace: TMPDIR is too long");
    }
    if (!mkdtemp(d->path)) {
        d->path[0] = '\0';
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "trace: cannot create a temporary directory in %s: %s", tmp,
                             strerror(errno));
    }
    struct stat sb;
    d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d->fd < 0 || fstat(d->fd, &sb) != 0) {
        int e = errno;
        if (d->fd >= 0)
            close(d->fd);
        d->fd = -1;
        (void)rmdir(d->path);
        cp_status_set(st, CP_EXIT_RUNTIME, "trace: cannot open the temporary directory %s: %s",
                      d->path, strerror(e));
        d->path[0] = '\0';
        return CP_EXIT_RUNTIME;
    }
    d->dev = sb.st_dev;
    d->ino = sb.st_ino;
    return CP_EXIT_OK;
}

/* Whether name is a file the injection library writes into the raw directory: raw-PID.tsv and
 * its .raw-PID.tsv.part, cubin-KEY.cubin and its cubin-KEY.cubin.part-PID. */
static int cp_trace_is_injection_name(const char *name)
{
    size_t len = strlen(name);
    static const char part[] = ".tsv.part";
    if (cp_trace_is_raw_name(name))
        return 1;
    if (name[0] == '.' &&
        strncmp(name + 1, CP_TRACE_RAW_PREFIX, strlen(CP_TRACE_RAW_PREFIX)) == 0 &&
        len > sizeof part - 1 && strcmp(name + len - (sizeof part - 1), part) == 0)
        return 1;
    return strncmp(name, "cubin-", 6) == 0 && strstr(name, ".cubin.part-") != NULL;
}

/* Removes what coalprobe made and nothing else: the files of the injection library's names in
 * the directory it made, each unlinked through the descriptor of that directory (a link is
 * removed as a link, never followed), then the directory itself, by its path only while that
 * path is still the same directory (not a link or another directory the traced program put
 * there). Anything else found there is left, with the directory, and said. */
static void cp_trace_remove_temp_dir(cp_trace_temp *d)
{
    size_t kept = 0;
    char first[256] = "";
    int fd = dup(d->fd);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir && fd >= 0)
        close(fd);
    for (struct dirent *e; dir && (e = readdir(dir)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (cp_trace_is_injection_name(e->d_name) && unlinkat(d->fd, e->d_name, 0) == 0)
            continue;
        if (kept++ == 0)
            snprintf(first, sizeof first, "%s", e->d_name);
    }
    if (dir)
        closedir(dir);
    struct stat sb;
    int same = lstat(d->path, &sb) == 0 && S_ISDIR(sb.st_mode) && sb.st_dev == d->dev &&
               sb.st_ino == d->ino;
    if (!same) {
        fputs("coalprobe: warning: the temporary directory ", stderr);
        cp_text_put_printable(stderr, d->path);
        fputs(" was replaced while the program ran; coalprobe removed its own raw files from "
              "the directory it made and left what is there now as it is\n",
              stderr);
    } else if (kept) {
        fputs("coalprobe: note: the temporary directory ", stderr);
        cp_text_put_printable(stderr, d->path);
        fprintf(stderr, " is left in place: it holds %zu file%s coalprobe did not make (", kept,
                kept == 1 ? "" : "s");
        cp_text_put_printable(stderr, first);
        fprintf(stderr, "%s)\n", kept > 1 ? ", ..." : "");
    } else if (rmdir(d->path) != 0) {
        fputs("coalprobe: trace: could not remove the temporary directory ", stderr);
        cp_text_put_printable(stderr, d->path);
        fprintf(stderr, ": %s\n", strerror(errno));
    }
    close(d->fd);
    d->fd = -1;
}

/* -o (flag: or --json, ...) must not name one of the files the report reads (or that the traced
 * processes write):
 * a raw file name inside dir, or the same file as one of dir's raw files (a link to it). */
static int cp_trace_check_output(const char *flag, const char *output, const char *dir,
                                 const char *option, cp_status *st)
{
    int to_stdout = !output || strcmp(output, "-") == 0; /* 1<>raw-1.tsv: checked below */
    const char *hint = "the report would overwrite the raw trace it is made from: write it "
                       "outside that directory, e.g. -o report.txt";
    const char *name = NULL;
    if (!to_stdout && cp_path_in_directory(output, dir, &name) && cp_trace_is_raw_name(name))
        return cp_status_usage(st, hint, "%s: %s is a raw trace file of %s %s", flag, output,
                               option, dir);
    DIR *d = opendir(dir);
    if (!d)
        return CP_EXIT_OK; /* reading the directory fails later, with its own message */
    int rc = CP_EXIT_OK;
    for (struct dirent *e; rc == CP_EXIT_OK && (e = readdir(d)) != NULL;) {
        if (!cp_trace_is_raw_name(e->d_name))
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        if (!path) {
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "trace: out of memory");
            break;
        }
        snprintf(path, len, "%s/%s", dir, e->d_name);
        if (to_stdout ? cp_output_stdout_is_input(path) : cp_path_same_file(output, path))
            rc = cp_status_usage(st, hint, "%s: %s is the same file as %s, a raw trace file of %s",
                                 to_stdout ? "standard output" : flag, to_stdout ? "it" : output,
                                 path, option);
        free(path);
    }
    closedir(d);
    return rc;
}

/* cp_trace_check_output of -o and of every file written beside it. */
static int cp_trace_check_outputs(const cp_trace_cli *c, const char *dir, const char *option,
                                  cp_status *st)
{
    CP_TRY(cp_trace_check_output("-o", c->output, dir, option, st));
    for (size_t i = 0; i < c->exports.n; i++) {
        char flag[32];
        snprintf(flag, sizeof flag, "--%s", c->exports.items[i].option);
        CP_TRY(cp_trace_check_output(flag, c->exports.items[i].path, dir, option, st));
    }
    return CP_EXIT_OK;
}

/* The signal (SIGINT, SIGTERM) that asked the report side to stop, 0 while none did. */
static volatile sig_atomic_t cp_trace_signal;

/* Only records the first signal: the report side stops its helpers at its next step and writes
 * what it has, marked incomplete. */
static void cp_trace_on_signal(int sig)
{
    if (!cp_trace_signal)
        cp_trace_signal = sig;
}

/* Catches SIGINT and SIGTERM, keeping their old actions in old[2]. */
static void cp_trace_catch_signals(struct sigaction old[2])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cp_trace_on_signal;
    sigemptyset(&sa.sa_mask);
    cp_trace_signals_set(&sa, old);
}

/* ---- the report --------------------------------------------------------------------------- */

/* A message on stderr: "coalprobe: MESSAGE" and "hint: HINT", control characters escaped
 * (messages quote file and kernel names from the raw files). */
static void cp_trace_print_status(const cp_status *st)
{
    fputs("coalprobe: ", stderr);
    cp_text_put_printable(stderr, st->message);
    fputc('\n', stderr);
    if (st->hint[0]) {
        fputs("hint: ", stderr);
        cp_text_put_printable(stderr, st->hint);
        fputc('\n', stderr);
    }
}

static void cp_trace_print_failure(const cp_trace_cli *c, const char *command, const cp_status *st)
{
    cp_trace_print_status(st);
    if (c && c->format == CP_TRACE_FORMAT_JSON)
        cp_report_write_json_error(stdout, CP_VERSION, command, st);
}

/* Writes the report r to out in the format asked for, and the exports beside it to their
 * temporary files. */
static int cp_trace_write(cp_trace_cli *c, FILE *out, const cp_trace_report *r, cp_status *st)
{
    CP_TRY(cp_exports_write(&c->exports, cp_trace_export, r, st));
    return cp_trace_write_format(out, c->format, r, st);
}

/* Warns of each raw file that could not be read; an error when none could. */
static int cp_trace_check_readable(const char *dir, const cp_trace *t, cp_status *st)
{
    for (size_t i = 0; i < t->nunreadable; i++) {
        fputs("coalprobe: warning: skipped ", stderr);
        cp_text_put_printable(stderr, t->unreadable[i]);
        fputc('\n', stderr);
    }
    if (t->nfiles > 0 && t->nunreadable == t->nfiles) {
        cp_status_set(st, CP_EXIT_RUNTIME, "trace: no raw file in %s could be read (%s%s)", dir,
                      t->unreadable[0], t->nfiles > 1 ? ", ..." : "");
        cp_status_hint(st, "the warnings above say why each one was skipped; a raw file of "
                           "another format version is read by the coalprobe that wrote it");
        return CP_EXIT_RUNTIME;
    }
    return CP_EXIT_OK;
}

/* Reads the raw files, analyses them and writes the report to out, each step a phase of
 * cp_phase (--verbose). */
static int cp_trace_report_dir(cp_trace_cli *c, const char *dir, cp_trace_run *run,
                               const cp_trace_child *child, FILE *out, cp_trace_report *r,
                               cp_trace *t, cp_status *st)
{
    cp_phase_begin(CP_PHASE_TRACE_LOAD);
    int rc = c->nfrom_raw > 1
                 ? cp_trace_load_dirs(c->from_raw_dirs, c->nfrom_raw, t, &cp_trace_signal, st)
                 : cp_trace_load_dir(dir, t, &cp_trace_signal, st);
    if (rc == CP_EXIT_OK && child)
        cp_trace_launch_notes(child, t);
    cp_phase_end();
    CP_TRY(rc);
    CP_TRY(cp_trace_check_readable(dir, t, st));
    cp_phase_begin(CP_PHASE_TRACE_DEMANGLE);
    rc = cp_trace_demangle_all(t, st);
    cp_trace_inductor_all(t); /* torch.compile's kernels: their origin, from Inductor's wrapper */
    cp_phase_end();
    CP_TRY(rc);
    int have_opcodes = 0;
    cp_phase_begin(CP_PHASE_TRACE_NVDISASM);
    rc = cp_trace_sass_opcodes(t, dir, &have_opcodes, st);
    cp_phase_end();
    CP_TRY(rc);
    run->interrupted = cp_trace_signal; /* from here on the report is finished as it stands */
    cp_phase_begin(CP_PHASE_TRACE_ANALYZE);
    rc = cp_trace_analyze(t, run, &c->report, r, st);
    r->have_opcodes = have_opcodes;
    r->page_no_source = c->no_source;
    r->raw_dir = c->from_raw ? dir : NULL;
    cp_phase_end();
    CP_TRY(rc);
    cp_phase_begin(CP_PHASE_TRACE_WRITE);
    rc = cp_trace_write(c, out, r, st);
    cp_phase_end();
    return rc;
}

/* Reads, analyses and writes the report to out, and the exports beside it: renamed into place
 * once all of them are written. */
static int cp_trace_write_all(cp_trace_cli *c, const char *dir, cp_trace_run *run,
                              const cp_trace_child *child, cp_output *out, cp_trace_report *r,
                              cp_trace *t, cp_status *st)
{
    int rc = cp_output_begin(out, st);
    if (rc == CP_EXIT_OK)
        rc = cp_trace_report_dir(c, dir, run, child, out->file, r, t, st);
    if (rc == CP_EXIT_OK)
        rc = cp_output_commit(out, st);
    if (rc == CP_EXIT_OK)
        rc = cp_exports_commit(&c->exports, st);
    return rc;
}

/* --verbose: where the time went, the traced processes' own phases (their time records) under
 * the program's run. */
static void cp_trace_print_times(FILE *err, double total, const cp_trace_run *run,
                                 const cp_trace *t)
{
    fprintf(err, "coalprobe trace: %.3f s in all\n", total);
    if (isfinite(run->wall_seconds))
        fprintf(err, "  %-28s %9.3f s\n", "the program's run", run->wall_seconds);
    for (size_t p = 0; p < t->nprocs; p++) {
        const cp_trace_process *proc = &t->procs[p];
        if (proc->ntimes == 0)
            continue;
        fprintf(err, "    process %ld:\n", proc->pid);
        for (size_t i = 0; i < proc->ntimes; i++)
            fprintf(err, "      %-26s %9.3f s  (%" PRIu64 " time%s)\n", proc->times[i].phase,
                    proc->times[i].seconds, proc->times[i].count,
                    proc->times[i].count == 1 ? "" : "s");
    }
    for (size_t i = 0; i < CP_COUNT_OF(cp_trace_phases); i++) {
        fprintf(err, "  %-28s %9.3f s", cp_phase_name(cp_trace_phases[i]),
                cp_phase_seconds(cp_trace_phases[i]));
        if (cp_trace_phases[i] == CP_PHASE_TRACE_NVDISASM && t->sass_cached + t->sass_ran > 0) {
            fprintf(err, "  (%zu listing%s from the cache, %zu run", t->sass_cached,
                    t->sass_cached == 1 ? "" : "s", t->sass_ran);
            if (run->program) /* a traced program, not --from-raw */
                fprintf(err, "; %zu disassembled while the program ran", run->prefetched);
            fputc(')', err);
        }
        fputc('\n', err);
        if (cp_trace_phases[i] == CP_PHASE_TRACE_NVDISASM && t->sass_cache_note[0])
            fprintf(err, "    the listing cache: %s\n", t->sass_cache_note);
    }
}

/* The exit status once the report is written (or failed with rc): the program's when it
 * failed, coalprobe's own error, the gate. */
static int cp_trace_verdict(const cp_trace_child *child, int rc, const cp_trace_report *r,
                            cp_status *st)
{
    int program = child && child->signaled ? 128 + child->term_signal
                  : child && child->exited ? child->exit_code
                                           : 0;
    if (rc != CP_EXIT_OK)
        return program ? program : rc;
    if (r->gate_empty) { /* judged nothing: an error, never a pass */
        cp_status_set(st, CP_EXIT_RUNTIME, "trace: the gate has nothing to judge: %s",
                      r->gate_empty_reason);
        if (r->gate_empty_fix[0])
            cp_status_hint(st, "%s", r->gate_empty_fix);
        return program ? program : CP_EXIT_RUNTIME;
    }
    if (r->nviolations) {
        cp_trace_write_violations(stderr, r);
        const cp_trace_options *o = r->options;
        char judged[160] = "";
        if (isfinite(o->max_sectors_per_request) || isfinite(o->max_excess_pct))
            snprintf(judged, sizeof judged, "%zu instructions and %zu kernels counted as a whole",
                     r->gate_judged - r->gate_judged_kernels, r->gate_judged_kernels);
        if (isfinite(o->min_coverage))
            snprintf(judged + strlen(judged), sizeof judged - strlen(judged),
                     "%s%zu %s coverage", judged[0] ? " and " : "", r->gate_judged_coverage,
                     r->gate_judged_coverage == 1 ? "kernel's" : "kernels'");
        cp_status_set(st, CP_EXIT_MISMATCH, "trace: gate failed: %zu violation%s among %s judged",
                      r->nviolations, r->nviolations == 1 ? "" : "s", judged);
        return program ? program : CP_EXIT_MISMATCH;
    }
    return program;
}

/* Checks what the command line names before anything runs: --from-raw's directory, or the
 * program, --raw-dir and the injection library; then that --output is not inside the raw
 * directory. */
static int cp_trace_prepare(const cp_trace_cli *c, char *program_path, size_t program_size,
                            char *inject, size_t inject_size, cp_status *st)
{
    struct stat sb;
    int raw_dir_created = 0;
    int rc = CP_EXIT_OK;
    if (c->format == CP_TRACE_FORMAT_HTML) /* not 60 KB of markup on a terminal */
        CP_TRY(cp_output_check_page(c->output, st));
    for (size_t i = 0; i < c->nfrom_raw && rc == CP_EXIT_OK; i++) {
        const char *dir = c->from_raw_dirs[i];
        if (i > 0 && (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
            rc = cp_status_usage(st,
                                 "--from-raw DIR [DIR...] reports recorded raw files and runs "
                                 "nothing",
                                 "--from-raw runs no program, and '%s' was given (it is not a "
                                 "directory)",
                                 dir);
        } else if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            int missing = stat(dir, &sb) != 0;
            cp_status_set(st, CP_EXIT_USAGE, "--from-raw: %s %s", dir,
                          missing ? "does not exist" : "is not a directory");
            cp_status_hint(st, "name the directory that --raw-dir kept");
            rc = CP_EXIT_USAGE;
        }
    }
    if (rc == CP_EXIT_OK && !c->from_raw) {
        rc = cp_trace_find_program(c->nprogram > 0 ? c->program[0] : NULL, program_path,
                                   program_size, st);
        if (rc == CP_EXIT_OK && c->raw_dir) {
            raw_dir_created = stat(c->raw_dir, &sb) != 0;
            rc = cp_trace_prepare_raw_dir(c->raw_dir, st);
        }
        if (rc == CP_EXIT_OK)
            rc = cp_trace_find_injection(inject, inject_size, st);
    }
    for (size_t i = 0; i < c->nfrom_raw && rc == CP_EXIT_OK; i++)
        rc = cp_trace_check_outputs(c, c->from_raw_dirs[i], "--from-raw", st);
    if (rc == CP_EXIT_OK && c->raw_dir) {
        rc = cp_trace_check_outputs(c, c->raw_dir, "--raw-dir", st);
        if (rc != CP_EXIT_OK && raw_dir_created)
            (void)rmdir(c->raw_dir); /* made just now, and still empty */
    }
    return rc;
}

/* Runs the program under the injection library, writing its raw files into dir, and records
 * how it ended in run; program_text: the program as the user named it (freed by the caller). */
static int cp_trace_run_program(const cp_trace_cli *c, const char *program_path, const char *inject,
                                const char *dir, cp_trace_child *child, cp_trace_run *run,
                                char **program_text, cp_status *st)
{
    int rc = CP_EXIT_OK;
    /* the program as the user named it; the resolved path is what runs */
    *program_text = cp_trace_join(c->nprogram, c->program, NULL);
    run->program = *program_text ? *program_text : c->program[0];
    char **args = malloc((size_t)(c->nprogram + 1) * sizeof *args);
    if (!args) {
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "trace: out of memory");
    } else {
        for (int i = 0; i <= c->nprogram; i++)
            args[i] = c->program[i]; /* c->program[c->nprogram] is argv's NULL */
        /* the injection library reads its metric set from the environment it inherits */
        if (c->kernel_set && setenv("COALPROBE_TRACE_KERNEL_SET", c->kernel_set, 1) != 0)
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "trace: setenv: %s", strerror(errno));
        if (rc == CP_EXIT_OK && c->python_frames &&
            setenv("COALPROBE_TRACE_PYTHON_FRAMES", c->python_frames, 1) != 0)
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "trace: setenv: %s", strerror(errno));
        if (rc == CP_EXIT_OK && c->python_stack &&
            setenv("COALPROBE_TRACE_PYTHON_STACK", "1", 1) != 0)
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "trace: setenv: %s", strerror(errno));
        if (rc == CP_EXIT_OK)
            rc = cp_trace_collect_env(c, st);
        fflush(stdout);
        fflush(stderr);
        if (rc == CP_EXIT_OK) {
            /* nvdisasm on the small cubins as their modules load, beside the program */
            cp_trace_prefetch *ahead = cp_trace_prefetch_start(dir);
            rc = cp_trace_launch(program_path, args, inject, dir, child, st);
            cp_trace_prefetch_finish(ahead, rc != CP_EXIT_OK || child->forwarded, &run->prefetched);
        }
        free(args);
    }
    if (rc == CP_EXIT_OK) {
        run->exited = child->exited;
        run->exit_code = child->exit_code;
        run->signaled = child->signaled;
        run->term_signal = child->term_signal;
        run->wall_seconds = child->wall_seconds;
    }
    return rc;
}

/* After a SIGINT or SIGTERM: says what became of the report, and the status is the shell's
 * convention, 128 + N, unless the program failed on its own. */
static int cp_trace_interrupted(int rc, const cp_trace_run *run, const cp_trace_child *child,
                                int status)
{
    int sig = cp_trace_signal;
    const char *name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "coalprobe: trace: interrupted by %s while reporting; no report\n", name);
    else if (run->interrupted)
        fprintf(stderr,
                "coalprobe: trace: interrupted by %s while reporting; the report holds what "
                "was read and is marked incomplete\n",
                name);
    else
        fprintf(stderr,
                "coalprobe: trace: interrupted by %s as the report was finished; the report "
                "is complete\n",
                name);
    if (!(child->signaled || (child->exited && child->exit_code)))
        status = 128 + sig;
    return status;
}

/* Removes the temporary directory of the raw files, unless processes still write there. */
static void cp_trace_leave_temp_dir(cp_trace_temp *temp, const cp_trace_child *child)
{
    if (child->nwriting) { /* never removed under a process still writing there */
        fprintf(stderr,
                "coalprobe: note: the raw files stay in %s: processes still write there; "
                "coalprobe trace --from-raw %s reports them once they end\n",
                temp->path, temp->path);
        close(temp->fd);
        temp->fd = -1;
    } else {
        cp_trace_remove_temp_dir(temp);
    }
}

int cp_trace_main(int argc, char **argv)
{
    double started = cp_phase_now();
    cp_status st;
    cp_status_clear(&st);
    cp_trace_cli c;
    char *command = cp_trace_join(argc - 1, argv + 1, "coalprobe trace");
    const char *cmd = command ? command : "coalprobe trace";
    int rc = cp_trace_parse(argc, argv, &c, &st);
    if (rc == CP_EXIT_OK && c.show_help) {
        cp_trace_print_help(stdout);
        free(command);
        return CP_EXIT_OK;
    }
    char program_path[4096], inject[4096];
    cp_trace_temp temp = {.fd = -1};
    if (rc == CP_EXIT_OK)
        rc = cp_trace_prepare(&c, program_path, sizeof program_path, inject, sizeof inject, &st);
    cp_output out = {0};
    int out_open = 0;
    if (rc == CP_EXIT_OK) {
        rc = cp_output_open(&out, c.output, &st);
        out_open = rc == CP_EXIT_OK;
    }
    if (rc == CP_EXIT_OK)
        rc = cp_exports_open(&c.exports, c.output, &st);
    const char *dir = c.from_raw ? c.from_raw : c.raw_dir;
    if (rc == CP_EXIT_OK && !dir) {
        rc = cp_trace_make_temp_dir(&temp, &st);
        dir = temp.path;
    }
    if (rc != CP_EXIT_OK) { /* nothing was run */
        if (out_open)
            cp_output_abort(&out);
        cp_exports_abort(&c.exports);
        cp_trace_print_failure(&c, cmd, &st);
        free(command);
        return rc;
    }

    cp_trace_child child = {0};
    char *program_text = NULL;
    cp_trace_run run = {.tool_version = CP_VERSION,
                        .command = cmd,
                        .from_raw = c.from_raw,
                        .from_raw_dirs = c.from_raw_dirs,
                        .nfrom_raw = c.nfrom_raw,
                        .wall_seconds = NAN};
    if (!c.from_raw)
        rc = cp_trace_run_program(&c, program_path, inject, dir, &child, &run, &program_text, &st);
    cp_trace t = {0};
    cp_trace_report r = {0};
    struct sigaction old_actions[2];
    cp_trace_signal = 0;
    cp_trace_catch_signals(old_actions);
    if (rc == CP_EXIT_OK)
        rc = cp_trace_write_all(&c, dir, &run, c.from_raw ? NULL : &child, &out, &r, &t, &st);
    cp_output_abort(&out);
    cp_exports_abort(&c.exports);
    if (rc != CP_EXIT_OK)
        cp_trace_print_failure(&c, cmd, &st);
    int status = cp_trace_verdict(c.from_raw ? NULL : &child, rc, &r, &st);
    if (rc == CP_EXIT_OK && st.code != CP_EXIT_OK)
        cp_trace_print_status(&st);
    if (cp_trace_signal) /* stopped by a signal */
        status = cp_trace_interrupted(rc, &run, &child, status);
    cp_trace_signals_restore(old_actions);
    if (c.verbose)
        cp_trace_print_times(stderr, cp_phase_now() - started, &run, &t);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    if (temp.path[0])
        cp_trace_leave_temp_dir(&temp, &child);
    free(program_text);
    free(command);
    return status;
}
