/* cp_commands.c: coalprobe's commands and their help (cp_commands.h): a family's help built
 * from its descriptor, the options of a sweep, compare and doctor as tables, --help, `coalprobe
 * help`, and the nearest command to one mistyped. */
#include "cp_commands.h"

#include <inttypes.h>
#include <string.h>

#include "cp_compare_main.h"
#include "cp_doctor.h"
#include "cp_show_main.h"
#include "report/cp_report.h"
#include "trace/cp_trace.h"

/* --- a family's options, from its descriptor ---------------------------------------------------
 */

/* bytes as the sweep grammar writes them: 4K, 256M, 16G, or a plain number. */
static void cp_commands_bytes(uint64_t b, char *buf, size_t len)
{
    static const char units[] = "KMGT";
    int u = -1;
    while (b >= 1024 && b % 1024 == 0 && u < 3) {
        b /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, len, "%" PRIu64, b);
    else
        snprintf(buf, len, "%" PRIu64 "%c", b, units[u]);
}

/* The values a numeric parameter takes, as its parser (limits, then its check) accepts them:
 * "4, 8, 16 or 32" when the check accepts only some of a short range, else "MIN..MAX". */
static void cp_commands_range(const cp_family_param *ps, char *buf, size_t len)
{
    char lo[32], hi[32];
    if (ps->bytes) {
        cp_commands_bytes(ps->min, lo, sizeof lo);
        cp_commands_bytes(ps->max, hi, sizeof hi);
    } else {
        snprintf(lo, sizeof lo, "%" PRIu64, ps->min);
        snprintf(hi, sizeof hi, "%" PRIu64, ps->max);
    }
    snprintf(buf, len, "%s..%s", lo, hi);
    if (!ps->check || ps->max - ps->min > 64)
        return;
    char list[160] = "";
    size_t used = 0, accepted = 0;
    uint64_t last = 0;
    for (uint64_t v = ps->min; v <= ps->max; v++) {
        cp_sweep one = {&v, 1};
        cp_status st;
        cp_status_clear(&st);
        if (ps->check(&one, &st) != CP_EXIT_OK)
            continue;
        if (accepted++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%" PRIu64,
                                     used ? ", " : "", last);
        last = v;
    }
    if (accepted == ps->max - ps->min + 1 || accepted == 0 || used >= sizeof list)
        return; /* the check refuses nothing in the range (or all of it): the range says it */
    snprintf(buf, len, "%s%s%" PRIu64, list, used ? " or " : "", last);
}

/* "the names, or all" into buf, and the names (and "all") separated by spaces into values. */
static void cp_commands_names_of(const cp_family_param *ps, char *buf, size_t len, char *values,
                                 size_t vlen)
{
    size_t used = 0, vused = 0;
    for (size_t i = 0; i < ps->nnames; i++) {
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", i ? ", " : "",
                                 ps->names[i]);
        vused +=
            (size_t)snprintf(values + vused, vused < vlen ? vlen - vused : 0, "%s ", ps->names[i]);
    }
    snprintf(buf + (used < len ? used : len - 1), used < len ? len - used : 1, " or all");
    snprintf(values + (vused < vlen ? vused : vlen - 1), vused < vlen ? vlen - vused : 1, "all");
}

/* One parameter of a family: what it is, the values it takes and its default. */
static void cp_commands_param(const cp_family_param *ps, cp_family_options *o)
{
    size_t i = o->n++;
    cp_help_option *h = &o->options[i];
    char range[200];
    memset(h, 0, sizeof *h);
    h->name = ps->option + 2; /* without "--" */
    h->arg = ps->arg;
    h->complete = CP_HELP_ANY;
    if (ps->names) {
        cp_commands_names_of(ps, range, sizeof range, o->values[i], sizeof o->values[i]);
        h->complete = CP_HELP_VALUES;
        h->values = o->values[i];
    } else {
        cp_commands_range(ps, range, sizeof range);
    }
    const char *doc = ps->doc;
    snprintf(o->text[i], sizeof o->text[i], "%s. %s%s; default %s.", doc ? doc : "?",
             ps->names ? "One or more of " : "", range, ps->default_spec);
    h->text = o->text[i];
}

void cp_commands_family_options(cp_family f, cp_family_options *o)
{
    const cp_family_desc *d = cp_family_get(f);
    memset(o, 0, sizeof *o);
    for (size_t k = 0; k < d->noptions && o->n < CP_COMMANDS_FAMILY_MAX; k++)
        o->options[o->n++] = d->options[k];
    const cp_family_param *ps;
    for (size_t i = 0; (ps = cp_family_help_param(d, i)) != NULL; i++) /* in its help's order */
        if (o->n < CP_COMMANDS_FAMILY_MAX)
            cp_commands_param(ps, o);
    if (d->size_default && o->n < CP_COMMANDS_FAMILY_MAX) {
        size_t i = o->n++;
        char lo[32], hi[32], def[32];
        cp_commands_bytes(CP_SIZE_MIN, lo, sizeof lo);
        cp_commands_bytes(CP_SIZE_MAX, hi, sizeof hi);
        cp_commands_bytes(d->size_default, def, sizeof def);
        snprintf(o->text[i], sizeof o->text[i], "%s, K/M/G suffixes. %s..%s; default %s.",
                 d->size_doc ? d->size_doc : "bytes", lo, hi, def);
        o->options[i] = (cp_help_option){NULL, "size", 0, "BYTES", o->text[i], CP_HELP_ANY, NULL};
    }
}

/* --- the options of a sweep ------------------------------------------------------------------- */

/* A macro's value as a string literal (the stopping rule's defaults, from cp_measure.h). */
#define CP_COMMANDS_STR_(x) #x
#define CP_COMMANDS_STR(x) CP_COMMANDS_STR_(x)

static const cp_help_option cp_commands_sweep_table[] = {
    {"Output", "format", 0, "FMT", NULL /* written by cp_commands_sweep_options */, CP_HELP_VALUES,
     NULL},
    {NULL, "output", 'o', "FILE",
     "write the report to FILE ('-' is standard output): a file is replaced whole once the "
     "report is complete (its mode kept; new files follow the umask); a link is followed; a "
     "FIFO or device such as /dev/null is written in place",
     CP_HELP_FILE, NULL},
    {NULL, "explain", 0, NULL, "draw which lanes of a warp land on which line and sector",
     CP_HELP_ANY, NULL},
    {NULL, "warp", 0, "W", "the warp --explain draws (default 0)", CP_HELP_ANY, NULL},
    /* here cp_commands_sweep_options inserts one --FORMAT FILE per exporter */
    {NULL, "wide", 0, NULL,
     "every column of the table (default: as many as fit the terminal, or 100 columns; a line "
     "under it names the others)",
     CP_HELP_ANY, NULL},
    {NULL, "color", 0, "WHEN",
     "never, auto (default: on a terminal, unless NO_COLOR is set) or always", CP_HELP_VALUES,
     "never auto always"},
    {NULL, "quiet", 0, NULL,
     "no progress on stderr (a terminal's line, or a line every 10 s elsewhere) and no notes "
     "(why there is no GPU, configurations left out; they wrap at the table's width); warnings "
     "stay",
     CP_HELP_ANY, NULL},
    {"Measurement", "model", 0, NULL, "model only: never touch the GPU", CP_HELP_ANY, NULL},
    {NULL, "device", 0, "N", "the CUDA device to use, 0..1023 (default 0)", CP_HELP_ANY, NULL},
    {NULL, "devices", 0, "LIST",
     "spread the configurations over several GPUs of this host, one worker each (0,1 or 0..3, "
     "or all); rows name their GPU (docs/measurement.md)",
     CP_HELP_ANY, NULL},
    {NULL, "mixed", 0, NULL, "allow GPUs of different kinds in one --devices run", CP_HELP_ANY,
     NULL},
    {NULL, "reps", 0, "N",
     "exactly N timed launches per configuration, 1.." CP_COMMANDS_STR(
         CP_SAMPLING_MAX_COUNT) " (default: as many as the stopping rule below takes)",
     CP_HELP_ANY, NULL},
    {NULL, "min-samples", 0, "N",
     "the rule: at least N timed launches, 1.." CP_COMMANDS_STR(
         CP_SAMPLING_MAX_COUNT) " (default " CP_COMMANDS_STR(CP_SAMPLING_MIN_SAMPLES) ")",
     CP_HELP_ANY, NULL},
    {NULL, "max-noise", 0, "PCT",
     "the rule: then stop once the noise is at most PCT percent, the half-width of the median's "
     "90% confidence interval over the median (default " CP_COMMANDS_STR(
         CP_SAMPLING_MAX_NOISE_PCT) "%)",
     CP_HELP_ANY, NULL},
    {NULL, "min-time", 0, "S",
     "the rule: never stop before the timed launches add up to S seconds (0.2, 200ms; "
     "default " CP_COMMANDS_STR(CP_SAMPLING_MIN_TIME_S) ")",
     CP_HELP_ANY, NULL},
    {NULL, "max-time", 0, "S",
     "the rule: stop a configuration still noisy after S seconds of timing, marked noisy (~ in "
     "the table; default " CP_COMMANDS_STR(CP_SAMPLING_MAX_TIME_S) ")",
     CP_HELP_ANY, NULL},
    {NULL, "no-counters", 0, NULL,
     "time only, never start CUPTI (so that Nsight Compute can profile)", CP_HELP_ANY, NULL},
    {NULL, "require-counters", 0, NULL, "exit 1 when the hardware counters cannot be read",
     CP_HELP_ANY, NULL},
    {NULL, "check", 0, NULL, "exit 3 when measured requests or sectors differ from the model",
     CP_HELP_ANY, NULL},
    {NULL, "allow-large-sweep", 0, NULL, "run sweeps of more than 100,000 configurations",
     CP_HELP_ANY, NULL},
    {NULL, "verbose", 'v', NULL,
     "at the end, where the time went (device set-up, CUPTI session, fills, verification, "
     "timing, counter passes, report) on stderr",
     CP_HELP_ANY, NULL},
    {"Other", "list", 0, NULL, "the pattern families and their parameters", CP_HELP_ANY, NULL},
    {NULL, "help", 'h', NULL, "this help; after a family, the family's", CP_HELP_ANY, NULL},
    {NULL, "version", 'V', NULL, "the version, CUDA and CUPTI, the GPU architectures built",
     CP_HELP_ANY, NULL},
};

/* Where the exporters' options go in the sweep's table: after --warp. */
#define CP_COMMANDS_EXPORTS_AT 4

const cp_help_option *cp_commands_sweep_options(size_t *n)
{
    static cp_help_option table[CP_COUNT_OF(cp_commands_sweep_table) + CP_EXPORTS_MAX];
    static char formats[160], text[320], export_text[CP_EXPORTS_MAX][96];
    size_t used = 0, tused = 0;
    for (int f = 0; f < CP_FORMAT_COUNT; f++) {
        const char *name = cp_report_format_name((cp_format)f);
        used += (size_t)snprintf(formats + used, sizeof formats - used, "%s%s", f ? " " : "", name);
        tused += (size_t)snprintf(text + tused, sizeof text - tused, "%s%s",
                                  !f                        ? "the report's format: "
                                  : f + 1 < CP_FORMAT_COUNT ? ", "
                                                            : " or ",
                                  name);
    }
    snprintf(text + tused, sizeof text - tused,
             " (vega-lite: a chart spec; html: a page that draws the lanes, sectors and charts); "
             "default %s",
             cp_report_format_name(CP_FORMAT_TABLE));
    size_t k = 0;
    for (size_t i = 0; i < CP_COUNT_OF(cp_commands_sweep_table); i++) {
        for (size_t e = 0;
             i == CP_COMMANDS_EXPORTS_AT && cp_report_exporter_get(e) && e < CP_EXPORTS_MAX; e++) {
            snprintf(export_text[e], sizeof export_text[e], "also write %s to FILE (as -o)",
                     cp_report_exporter_get(e)->help);
            table[k++] = (cp_help_option){
                NULL, cp_report_exporter_get(e)->option, 0, "FILE", export_text[e], CP_HELP_FILE,
                NULL};
        }
        table[k++] = cp_commands_sweep_table[i];
    }
    table[0].text = text;
    table[0].values = formats;
    *n = k;
    return table;
}

/* --- compare and doctor ------------------------------------------------------------------------
 */

static const cp_help_option cp_commands_compare_options[] = {
    {"Options", "tolerance", 0, "T",
     "the change of times and bandwidths allowed: 5%, 0.05 (default 5%); counts must be equal",
     CP_HELP_ANY, NULL},
    {NULL, "format", 0, "FMT",
     "table (text, default), json or html (a page: before and after side "
     "by side)",
     CP_HELP_VALUES, "table json html"},
    {NULL, "output", 'o', "FILE",
     "write the comparison to FILE, replaced whole once complete (as reports: coalprobe --help)",
     CP_HELP_FILE, NULL},
    {NULL, "help", 'h', NULL, "this help", CP_HELP_ANY, NULL},
};

static const cp_help_example cp_commands_compare_examples[] = {
    {"coalprobe compare before.json after.json", "what changed, as a table"},
    {"coalprobe compare a.json b.json --tolerance 10% --format json", "as JSON, 10% allowed"},
};

static const cp_help_command cp_commands_compare_command = {
    "compare",
    "what changed between two reports",
    "coalprobe compare BASE.json NEW.json [options]",
    "Matches the rows of two JSON reports by pattern and configuration (of two trace reports: "
    "the instructions by process, kernel and source line) and prints what changed: counts must "
    "be equal, times and bandwidths within the tolerance. A check between two builds, drivers "
    "or machines, and in CI (docs/compare.md). One report may be -, standard input.",
    cp_commands_compare_options,
    CP_COUNT_OF(cp_commands_compare_options),
    cp_commands_compare_examples,
    CP_COUNT_OF(cp_commands_compare_examples),
    "0 nothing regressed; 1 a report cannot be read; 2 usage error or not a coalprobe report; 3 "
    "something regressed.",
};

static const cp_help_option cp_commands_doctor_options[] = {
    {"Options", "format", 0, "FMT",
     "text (default: one line per check, marked with a check mark or a cross, or ok/FAIL when "
     "the locale is not UTF-8) or json",
     CP_HELP_VALUES, "text json"},
    {NULL, "chip", 0, "CHIP",
     "also the counters of a chip CUPTI knows (e.g. GH100, AD102), GPU or not; another name is a "
     "usage error listing them",
     CP_HELP_ANY, NULL},
    {NULL, "help", 'h', NULL, "this help", CP_HELP_ANY, NULL},
};

static const cp_help_example cp_commands_doctor_examples[] = {
    {"coalprobe doctor", "one line per check, the fix under a failed one"},
    {"coalprobe doctor --chip AD102 --format json", "also an RTX 4090's counters, as JSON"},
};

static const cp_help_command cp_commands_doctor_command = {
    "doctor",
    "what works on this machine, and the fixes",
    "coalprobe doctor [--format text|json] [--chip CHIP]",
    "Checks what measuring needs on this machine, one line per check with its fix: the CUDA "
    "driver and runtime; each GPU (name, sm_XY, memory, L2) and whether this build has code for "
    "it; CUPTI and the right to read counters; another profiler attached; each chip's counters "
    "and the profiler passes a sweep costs; NVRTC and cuBLAS; the trace path. Runs without a GPU "
    "too, and then names why there is none (no driver, no device node, a container started "
    "without GPUs, a driver too old for the runtime) and the fix, as a sweep's note does "
    "(docs/doctor.md).",
    cp_commands_doctor_options,
    CP_COUNT_OF(cp_commands_doctor_options),
    cp_commands_doctor_examples,
    CP_COUNT_OF(cp_commands_doctor_examples),
    "0 everything measuring needs is usable; 1 something it needs is missing (the trace path is "
    "optional); 2 usage error.",
};

static const cp_help_option cp_show_help_options[] = {
    {"Options", "format", 0, "FMT",
     "table (default), json, csv, vega-lite (a chart: sweeps and traces) or html (the page, "
     "docs/page.md)",
     CP_HELP_VALUES, "table json csv vega-lite html"},
    {NULL, "output", 'o', "FILE",
     "write it to FILE (as coalprobe -o: replaced whole when complete)", CP_HELP_FILE, NULL},
    {NULL, "top", 0, "N",
     "the first N rows (a trace: instructions per kernel; default: the trace's own --top in its "
     "table, every row elsewhere)",
     CP_HELP_ANY, NULL},
    {NULL, "sort", 0, "KEY",
     "sort the rows by KEY, smallest first (-KEY: largest first): a sweep's time, bandwidth, "
     "dram, gflops, sectors (predicted per request), efficiency, measured_sectors, a parameter "
     "(stride, variant, ...); a trace's excess, sectors, conflicts, wavefronts or any key of an "
     "instruction; or a path in the JSON row (measured.counters.load.sectors)",
     CP_HELP_ANY, NULL},
    {NULL, "wide", 0, NULL,
     "every column of a sweep's table (default: as many as fit the terminal, or 100 columns)",
     CP_HELP_ANY, NULL},
    {NULL, "color", 0, "WHEN",
     "never, auto (default: on a terminal, unless NO_COLOR is set) or always", CP_HELP_VALUES,
     "never auto always"},
    {NULL, "help", 'h', NULL, "this help", CP_HELP_ANY, NULL},
};

static const cp_help_example cp_show_examples[] = {
    {"coalprobe show sweep.json --sort -time --top 5", "the five slowest configurations"},
    {"coalprobe show trace.json --format html -o trace.html", "a saved trace as a page"},
};

static const cp_help_command cp_show_command = {
    "show",
    "a saved JSON report again, in any format",
    "coalprobe show REPORT.json [options]",
    "Writes a saved JSON report again: a sweep's (coalprobe --format json), a trace's (coalprobe "
    "trace --format json) or a comparison (coalprobe compare --format json), of any schema "
    "version this build reads, with the width rules of the table. REPORT.json may be -, standard "
    "input (coalprobe ... --format json | coalprobe show -). A file that is not a coalprobe "
    "report is refused, saying what it is.",
    cp_show_help_options,
    CP_COUNT_OF(cp_show_help_options),
    cp_show_examples,
    CP_COUNT_OF(cp_show_examples),
    "0 written; 1 a file cannot be read or written; 2 usage error, or a file that is not a "
    "coalprobe report (the message says what it is).",
};

const cp_help_command *cp_commands_show(void)
{
    return &cp_show_command;
}

const cp_help_command *cp_commands_compare(void)
{
    return &cp_commands_compare_command;
}

const cp_help_command *cp_commands_doctor(void)
{
    return &cp_commands_doctor_command;
}

/* --- the command table ------------------------------------------------------------------------
 */

/* coalprobe trace: the trace layer's argv starts at the command word. */
static int cp_commands_run_trace(int argc, char **argv)
{
    return cp_trace_main(argc - 1, argv + 1);
}

static const cp_command cp_commands_entries[] = {
    {"trace", cp_commands_run_trace, cp_trace_help, NULL, CP_OPERANDS_PROGRAM},
    {"show", cp_show_main, cp_commands_show, NULL, CP_OPERANDS_REPORT},
    {"compare", cp_compare_main, cp_commands_compare, NULL, CP_OPERANDS_TWO_REPORTS},
    {"doctor", cp_doctor_main, cp_commands_doctor, NULL, CP_OPERANDS_NONE},
    {"help", cp_commands_help_main, NULL, "the help of a family or command", CP_OPERANDS_COMMAND},
};

const cp_command *cp_commands_table(size_t *n)
{
    *n = CP_COUNT_OF(cp_commands_entries);
    return cp_commands_entries;
}

const cp_command *cp_commands_find(const char *word)
{
    for (size_t i = 0; i < CP_COUNT_OF(cp_commands_entries); i++)
        if (strcmp(word, cp_commands_entries[i].name) == 0)
            return &cp_commands_entries[i];
    return NULL;
}

const char *cp_commands_summary(const cp_command *c)
{
    return c->help ? c->help()->summary : c->summary;
}

const char *const *cp_commands_names(size_t *n)
{
    static const char *names[CP_FAMILY_COUNT + CP_COUNT_OF(cp_commands_entries)];
    size_t k = 0;
    for (int f = 0; cp_family_get((cp_family)f); f++)
        names[k++] = cp_family_get((cp_family)f)->name;
    for (size_t i = 0; i < CP_COUNT_OF(cp_commands_entries); i++)
        names[k++] = cp_commands_entries[i].name;
    *n = k;
    return names;
}

/* --- printing ----------------------------------------------------------------------------------
 */

static const cp_help_example cp_commands_examples[] = {
    {"coalprobe --stride 1..32", "sectors per request against stride"},
    {"coalprobe --offset 0..31", "misaligned starts"},
    {"coalprobe --width 4,8,16,32", "scalar against vector accesses"},
    {"coalprobe layout --fields 1..16", "AoS against SoA"},
    {"coalprobe gemm --m 2048", "the GEMM ladder, naive to cuBLAS"},
    {"coalprobe smem", "bank conflicts against stride 1..33"},
    {"coalprobe transpose", "naive, tiled and padded transpose"},
    {"coalprobe expr --index 'i * s % n' --param s=1..8", "your own indexing"},
    {"coalprobe --stride 2 --explain", "draw warp 0 over sectors and lines"},
    {"coalprobe --stride 1..32 --format json | jq '.rows[].predicted.load'", "the JSON report"},
    {"coalprobe trace -- ./my_app", "your own program's memory instructions"},
    {"coalprobe show report.json --format html -o r.html", "a saved report again, as a page"},
    {"coalprobe compare before.json after.json", "what changed between two runs"},
    {"coalprobe doctor", "will measuring work here? the fixes"},
};

/* The sweep grammar every parameter takes. */
#define CP_COMMANDS_GRAMMAR                                                                        \
    "Numeric parameters sweep: N, a..b, a..b:step, a..b:xF (multiply), lists a,b,c and "           \
    "mixtures (1..8,16,32). Several swept parameters run every combination. Numbers are "          \
    "decimal, written without leading zeros (10, not 010: C would read it as octal). An option "   \
    "with a value is given once (a second --size is an error); --param once per name."

/* "  NAME      summary" for each family, then each command of the table. */
static void cp_commands_print_commands(FILE *out)
{
    fputs("Families (coalprobe FAMILY --help: its parameters, defaults and examples):\n", out);
    for (int f = 0; cp_family_get((cp_family)f); f++) {
        const cp_family_desc *d = cp_family_get((cp_family)f);
        fprintf(out, "  %-11s", d->name);
        char text[200];
        snprintf(text, sizeof text, "%s%s", d->summary, f ? "" : " (the default)");
        cp_help_wrap(out, text, 13, 13);
    }
    fputs("\nCommands (coalprobe COMMAND --help):\n", out);
    for (size_t i = 0; i < CP_COUNT_OF(cp_commands_entries); i++) {
        const cp_command *c = &cp_commands_entries[i];
        char text[200]; /* help's: "help COMMAND: " and its summary */
        snprintf(text, sizeof text, "%s%s",
                 c->help ? "" : "help COMMAND: ", cp_commands_summary(c));
        fprintf(out, "  %-11s", c->name);
        cp_help_wrap(out, text, 13, 13);
    }
}

void cp_commands_print_help(FILE *out)
{
    fputs("coalprobe: predicts and measures how a warp's memory accesses coalesce into\n"
          "32-byte sectors and 128-byte lines.\n"
          "\n"
          "Usage: coalprobe [FAMILY] [options]   a sweep of a family (default stride)\n"
          "       coalprobe FAMILY --help        its parameters, defaults and examples\n"
          "       coalprobe trace [options] -- PROGRAM [ARGS...]\n"
          "       coalprobe show REPORT.json [--format FMT]\n"
          "       coalprobe compare BASE.json NEW.json [--tolerance 5%]\n"
          "       coalprobe doctor [--format json]\n"
          "       coalprobe help [COMMAND]\n"
          "\n",
          out);
    cp_help_wrap(out, CP_COMMANDS_GRAMMAR, 0, 0);
    fputc('\n', out);
    cp_commands_print_commands(out);
    cp_family_options fo;
    cp_commands_family_options((cp_family)0, &fo);
    fprintf(out, "\nParameters of %s, the default family:\n", cp_family_get((cp_family)0)->name);
    for (size_t i = 0; i < fo.n; i++)
        cp_help_print_option(out, &fo.options[i]);
    size_t n;
    const cp_help_option *sweep = cp_commands_sweep_options(&n);
    fputc('\n', out);
    cp_help_print_options(out, sweep, n);
    fputs("\nExamples:\n", out);
    cp_help_print_examples(out, cp_commands_examples, CP_COUNT_OF(cp_commands_examples));
    fputs("\nExit codes: ", out);
    cp_help_wrap(out,
                 "0 ok; 1 runtime error; 2 usage error (nothing was run or written); 3 predicted "
                 "and measured counts disagree (with --check); 130, 143 interrupted; 141 standard "
                 "output closed by its reader (e.g. | head), quietly.\nWithout a CUDA device "
                 "coalprobe prints the model's predictions and says why there is none.",
                 12, 0);
}

void cp_commands_print_family(FILE *out, cp_family f)
{
    const cp_family_desc *d = cp_family_get(f);
    fprintf(out, "Usage: coalprobe %s [options]%s\n\n", d->name,
            f == 0 ? "   (the default: coalprobe [options])" : "");
    char line[300];
    snprintf(line, sizeof line, "%s: %s.", d->name, d->summary);
    cp_help_wrap(out, line, 0, 0);
    fputc('\n', out);
    cp_help_wrap(out, d->teaches, 0, 0);
    cp_family_options fo;
    cp_commands_family_options(f, &fo);
    for (size_t i = 0; i < fo.n; i++) {
        if (i == 0 && d->noptions)
            fputs("\nOptions:\n", out);
        if (i == d->noptions) {
            fputc('\n', out);
            cp_help_wrap(out,
                         "Parameters (each a sweep: N, a..b, a..b:step, a..b:xF, a,b,c; every "
                         "combination runs):",
                         0, 0);
        }
        cp_help_print_option(out, &fo.options[i]);
    }
    size_t n;
    const cp_help_option *sweep = cp_commands_sweep_options(&n);
    char also[700];
    size_t used = (size_t)snprintf(also, sizeof also, "The options every family takes: ");
    for (size_t i = 0, k = 0; i < n && used < sizeof also; i++)
        if (strcmp(sweep[i].name, "help") != 0 && strcmp(sweep[i].name, "version") != 0 &&
            strcmp(sweep[i].name, "list") != 0)
            used += (size_t)snprintf(also + used, sizeof also - used, "%s--%s", k++ ? ", " : "",
                                     sweep[i].name);
    if (used < sizeof also)
        snprintf(also + used, sizeof also - used, " (coalprobe --help says what they do).");
    fputc('\n', out);
    cp_help_wrap(out, also, 0, 0);
    fputc('\n', out);
    fputs("Examples:\n", out);
    cp_help_print_examples(out, d->examples, CP_COUNT_OF(d->examples));
}

int cp_commands_unknown(const char *word, cp_status *st)
{
    size_t n;
    const char *const *names = cp_commands_names(&n);
    const char *near = cp_help_nearest(word, names, n);
    char list[256];
    size_t used = 0;
    for (size_t i = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s%s", i ? ", " : "",
                                 i + 1 == n ? "and " : "", names[i]);
    cp_status_set(st, CP_EXIT_USAGE, "unknown command '%s'", word);
    if (near)
        cp_status_hint(st, "did you mean '%s'? commands are %s", near, list);
    else
        cp_status_hint(st, "commands are %s (stride is the default)", list);
    return CP_EXIT_USAGE;
}

int cp_commands_unknown_option(const char *word, const struct option *table, cp_family family,
                               cp_status *st)
{
    const char *names[128];
    size_t n = 0;
    for (; table[n].name && n < CP_COUNT_OF(names); n++)
        names[n] = table[n].name;
    char bare[64]; /* without the dashes and a value after '=' */
    const char *w = word + strspn(word, "-");
    snprintf(bare, sizeof bare, "%.*s", (int)strcspn(w, "="), w);
    const char *near = cp_help_nearest(bare, names, n);
    char help[64] = "coalprobe --help";
    if (family != (cp_family)0)
        snprintf(help, sizeof help, "coalprobe %s --help", cp_family_get(family)->name);
    cp_status_set(st, CP_EXIT_USAGE, "unknown option '%s'", word);
    if (near)
        cp_status_hint(st, "did you mean --%s? see %s", near, help);
    else
        cp_status_hint(st, "see %s", help);
    return CP_EXIT_USAGE;
}

int cp_commands_help_main(int argc, char **argv)
{
    if (argc <= 2) {
        cp_commands_print_help(stdout);
        return CP_EXIT_OK;
    }
    const char *what = argv[2];
    cp_family f;
    if (argc > 3) {
        fprintf(stderr,
                "coalprobe: help takes one command, not %d\nhint: e.g. coalprobe help "
                "gemm\n",
                argc - 2);
        return CP_EXIT_USAGE;
    }
    const cp_command *c = cp_commands_find(what);
    if (cp_family_find(what, &f))
        cp_commands_print_family(stdout, f);
    else if (c && c->help)
        cp_help_print_command(stdout, c->help());
    else if (c) /* help help */
        cp_commands_print_help(stdout);
    else {
        cp_status st;
        cp_status_clear(&st);
        cp_commands_unknown(what, &st);
        fprintf(stderr, "coalprobe: %s\nhint: %s\n", st.message, st.hint);
        return CP_EXIT_USAGE;
    }
    return CP_EXIT_OK;
}
