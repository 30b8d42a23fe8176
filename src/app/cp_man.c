/* cp_man.c: the man page coalprobe(1), written in roff by `coalprobe --help-man` from the help
 * tables (cp_commands.h): every family with its parameters, defaults, ranges and examples, the
 * options of a sweep, trace, compare, doctor and help. The build runs it, so the page installed
 * says what the binary parses. */
#include "cp_complete.h"

#include <string.h>

#include "cp_commands.h"

/* Writes text escaped for roff: backslashes and hyphens escaped, a line that would start with a
 * control character made plain, "\n\n" a new paragraph and "\n" a line break. at_start: the
 * text begins a line. */
static void cp_man_put(FILE *out, const char *text, int at_start)
{
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            fputs(p[1] == '\n' ? "\n.PP\n" : "\n.br\n", out);
            p += p[1] == '\n';
            at_start = 1;
            continue;
        }
        if (at_start && (*p == '.' || *p == '\''))
            fputs("\\&", out);
        at_start = 0;
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-')
            fputs("\\-", out);
        else
            fputc(*p, out);
    }
}

/* text as a line (or lines) of its own. */
static void cp_man_text(FILE *out, const char *text)
{
    cp_man_put(out, text, 1);
    fputc('\n', out);
}

/* One option: its name in bold, its value's name in italics, its text indented under it. */
static void cp_man_option(FILE *out, const cp_help_option *o)
{
    fputs(".TP\n", out);
    if (o->short_name)
        fprintf(out, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB\\-\\-", out);
    cp_man_put(out, o->name, 0);
    fputs("\\fR", out);
    if (o->arg) {
        fputs(" \\fI", out);
        cp_man_put(out, o->arg, 0);
        fputs("\\fR", out);
    }
    fputc('\n', out);
    cp_man_text(out, o->text);
}

static void cp_man_options(FILE *out, const cp_help_option *options, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (options[i].section) {
            fputs(".PP\n\\fB", out);
            cp_man_put(out, options[i].section, 0);
            fputs("\\fR\n", out);
        }
        cp_man_option(out, &options[i]);
    }
}

static void cp_man_examples(FILE *out, const cp_help_example *examples, size_t n)
{
    fputs(".PP\nExamples:\n", out);
    for (size_t i = 0; i < n; i++) {
        fputs(".TP\n.B ", out);
        cp_man_text(out, examples[i].command);
        cp_man_text(out, examples[i].says);
    }
}

static void cp_man_family(FILE *out, cp_family f)
{
    const cp_family_desc *d = cp_family_get(f);
    fprintf(out, ".SS %s%s\n", d->name, f == 0 ? " (the default)" : "");
    cp_man_text(out, d->summary);
    fputs(".PP\n", out);
    cp_man_text(out, d->teaches);
    cp_family_options fo;
    cp_commands_family_options(f, &fo);
    cp_man_options(out, fo.options, fo.n);
    cp_man_examples(out, d->examples, CP_COUNT_OF(d->examples));
}

static void cp_man_command(FILE *out, const cp_help_command *c)
{
    fprintf(out, ".SS %s\n", c->name);
    for (const char *line = c->usage; *line;) {
        size_t len = strcspn(line, "\n");
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)len, line);
        fputs(".B ", out);
        cp_man_text(out, buf);
        fputs(".br\n", out);
        line += len + (line[len] ? 1 : 0);
    }
    fputs(".PP\n", out);
    cp_man_text(out, c->about);
    cp_man_options(out, c->options, c->noptions);
    cp_man_examples(out, c->examples, c->nexamples);
    fputs(".PP\nExit status: ", out);
    cp_man_text(out, c->exit_codes);
}

/* Environment variables a user sets (docs/trace.md and docs/errors.md have the rest). */
static const char *const cp_man_environment[][2] = {
    {"CUDA_VISIBLE_DEVICES", "the GPUs CUDA shows coalprobe; empty: none (the model only)"},
    {"COALPROBE_INJECT_LIBRARY",
     "the injection library coalprobe trace loads into the program, instead of the one beside "
     "the executable (a build tree) or in lib/coalprobe/ of its prefix (an install)"},
    {"COALPROBE_CUPTI_LIBRARY", "another libcupti to load"},
    {"COALPROBE_CACHE_DIR",
     "the directory of trace's nvdisasm listing cache (set and empty: no cache); else "
     "$XDG_CACHE_HOME/coalprobe or ~/.cache/coalprobe"},
    {"COALPROBE_NVDISASM", "another nvdisasm for trace; set and empty, none is run"},
    {"COALPROBE_TRACE_WAIT",
     "seconds trace waits for processes still writing raw files after the program ended "
     "(decimal, default 30)"},
    {"COALPROBE_MAX_INPUT_BYTES", "the largest input show, compare and trace read (default 256 "
                                  "MiB for a JSON report, 1 GiB for a raw trace file)"},
};

/* The sections after the commands: exit status, environment, files, see also. */
static void cp_man_tail(FILE *out)
{
    fputs(".SH EXIT STATUS\n", out);
    cp_man_text(out, "0 ok; 1 runtime error; 2 usage error (nothing was run or written); 3 "
                     "predicted and measured counts disagree (with --check), compare found a "
                     "regression, or trace's gate failed; 130, 143 interrupted; 141 standard "
                     "output closed by its reader, quietly. trace exits with the program's own "
                     "status when it is not 0.");
    fputs(".SH ENVIRONMENT\n", out);
    for (size_t i = 0; i < CP_COUNT_OF(cp_man_environment); i++) {
        fputs(".TP\n.B ", out);
        cp_man_text(out, cp_man_environment[i][0]);
        cp_man_text(out, cp_man_environment[i][1]);
    }
    fputs(".SH FILES\n.TP\n.I PREFIX/lib/coalprobe/libcoalprobe_inject.so\n", out);
    cp_man_text(out, "the CUPTI injection library coalprobe trace runs the program with");
    fputs(".TP\n.I PREFIX/share/doc/coalprobe/\n", out);
    cp_man_text(out, "README.md and the documents: the model, the measurement, the JSON report "
                     "and its schemas, trace, compare, doctor, errors");
    fputs(".SH SEE ALSO\n.BR ncu (1),\n.BR nsys (1),\n.BR compute-sanitizer (1)\n", out);
}

int cp_man_write(FILE *out)
{
    fprintf(out,
            ".\\\" coalprobe(1), written by coalprobe --help-man from its help tables\n"
            ".TH COALPROBE 1 \"\" \"coalprobe %s\" \"User Commands\"\n"
            ".SH NAME\n"
            "coalprobe \\- predict and measure how a warp's memory accesses coalesce\n"
            ".SH SYNOPSIS\n",
            CP_VERSION);
    static const char *const synopsis[] = {
        "coalprobe [FAMILY] [options]",         "coalprobe trace [options] [--] PROGRAM [ARGS...]",
        "coalprobe show REPORT.json [options]", "coalprobe compare BASE.json NEW.json [options]",
        "coalprobe doctor [options]",           "coalprobe help [COMMAND]"};
    for (size_t i = 0; i < CP_COUNT_OF(synopsis); i++) {
        fputs(".B ", out);
        cp_man_text(out, synopsis[i]);
        fputs(".br\n", out);
    }
    fputs(".SH DESCRIPTION\n", out);
    cp_man_text(out, "A warp's 32 threads issue their loads together, and the memory system "
                     "serves them in 32-byte sectors of 128-byte lines: the order of the "
                     "addresses across a warp decides how many sectors move. For every "
                     "configuration of a sweep of a pattern family coalprobe predicts from every "
                     "lane's address what the memory system must do (requests, sectors, lines, "
                     "efficiency; for shared memory, wavefronts and bank conflicts), runs the "
                     "matching CUDA kernel, times it and reads the hardware counters through "
                     "CUPTI, and prints predicted beside measured. Without a GPU it prints the "
                     "model's predictions and says why there is no GPU.\n\n"
                     "Numeric parameters sweep: N, a..b, a..b:step, a..b:xF (multiply), lists "
                     "a,b,c and mixtures (1..8,16,32). Several swept parameters run every "
                     "combination. An option with a value is given once.");
    fputs(".SH FAMILIES\n", out);
    for (int f = 0; cp_family_get((cp_family)f); f++)
        cp_man_family(out, (cp_family)f);
    fputs(".SH OPTIONS\nThe options every family takes.\n", out);
    size_t n;
    const cp_help_option *sweep = cp_commands_sweep_options(&n);
    cp_man_options(out, sweep, n);
    fputs(".SH COMMANDS\n", out);
    const cp_command *cmds = cp_commands_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].help) {
            cp_man_command(out, cmds[i].help());
            continue;
        }
        char text[200]; /* help's: its summary, after its operand */
        snprintf(text, sizeof text, "[COMMAND]: %s, as COMMAND --help prints it.",
                 cp_commands_summary(&cmds[i]));
        fprintf(out, ".SS %s\n.B coalprobe %s\n", cmds[i].name, cmds[i].name);
        cp_man_text(out, text);
    }
    cp_man_tail(out);
    return ferror(out) ? CP_EXIT_RUNTIME : CP_EXIT_OK;
}
