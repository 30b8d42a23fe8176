/* cp_show_main.c: coalprobe show: the command line, the report read and recognised, the output
 * (by the rules of -o) and the layer that shows its kind: a sweep or a comparison (report), a
 * trace (trace). */
#define _POSIX_C_SOURCE 200809L
#include "cp_show_main.h"

#include "cp_commands.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cp_base.h"
#include "report/cp_report.h"
#include "trace/cp_trace.h"

/* What the command line asks. */
typedef struct cp_show_cli {
    cp_show_options show;
    const char *path, *output;
    int wide, help;
    cp_color_mode color;
} cp_show_cli;

/* --format, --top, --sort, --color and the flags; CP_EXIT_USAGE with a message otherwise. */
static int cp_show_option(cp_show_cli *c, int opt, const char *word, cp_status *st)
{
    uint64_t top = 0;
    switch (opt) {
    case 'f': {
        int f = cp_report_format_parse(optarg);
        if (f < 0)
            return cp_status_usage(st, "show writes table, json, csv, vega-lite or html",
                                   "--format: '%s' is not a format of show", optarg);
        c->show.format = f;
        return CP_EXIT_OK;
    }
    case 'o':
        CP_TRY(cp_output_check_name("-o", optarg, NULL, st));
        c->output = optarg;
        return CP_EXIT_OK;
    case 't':
        CP_TRY(cp_sweep_parse_u64(optarg, "--top", 1, 100000000, &top, st));
        c->show.top = (size_t)top;
        c->show.top_given = 1;
        return CP_EXIT_OK;
    case 's':
        if (!optarg[0] || ((optarg[0] == '-' || optarg[0] == '+') && !optarg[1]))
            return cp_status_usage(st, "e.g. --sort time, --sort -excess", "--sort: no key");
        c->show.sort = optarg;
        return CP_EXIT_OK;
    case 'w':
        c->wide = 1;
        return CP_EXIT_OK;
    case 'c': {
        int mode = cp_term_color_parse(optarg);
        if (mode < 0)
            return cp_status_usage(st, "--color takes never, auto (the default) or always",
                                   "--color: '%s' is not never, auto or always", optarg);
        c->color = (cp_color_mode)mode;
        return CP_EXIT_OK;
    }
    case 'h':
        c->help = 1;
        return CP_EXIT_OK;
    case ':':
        return cp_status_usage(st, "see coalprobe show --help", "option '%s' needs a value", word);
    default:
        return cp_status_usage(st, "see coalprobe show --help", "unknown option '%s' of show",
                               word);
    }
}

static int cp_show_parse(int argc, char **argv, cp_show_cli *c, cp_status *st)
{
    static const struct option options[] = {
        {"format", required_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'},
        {"top", required_argument, NULL, 't'},    {"sort", required_argument, NULL, 's'},
        {"wide", no_argument, NULL, 'w'},         {"color", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    memset(c, 0, sizeof *c);
    optind = 0;
    opterr = 0;
    char **args = argv + 1; /* "show" plays argv[0] */
    int nargs = argc - 1, opt;
    uint64_t seen = 0;
    while ((opt = getopt_long(nargs, args, ":o:h", options, NULL)) != -1) {
        CP_TRY(cp_sweep_once(options, opt, &seen, st));
        CP_TRY(cp_show_option(c, opt, args[optind - 1], st));
        if (c->help)
            return CP_EXIT_OK;
    }
    if (nargs - optind != 1)
        return cp_status_usage(st, "usage: coalprobe show REPORT.json [--format FMT] [-o FILE]",
                               "show takes one report, not %d", nargs - optind);
    c->path = args[optind];
    return CP_EXIT_OK;
}

/* The document of the report at path (*text: the file, which the caller frees), and its kind;
 * CP_EXIT_USAGE naming the file and what it is when it is no coalprobe report. */
static int cp_show_read(const char *path, char **text, cJSON **doc, cp_report_kind *kind,
                        cp_status *st)
{
    cp_json_read_result r;
    int rc = cp_json_read(path, 0, &r, st);
    *text = r.text;
    *doc = r.root;
    if (rc != CP_EXIT_OK)
        return rc;
    char why[300];
    *kind = cp_report_identify(*doc, *text, why, sizeof why);
    if (*kind != CP_REPORT_KIND_NONE)
        return CP_EXIT_OK;
    cp_status_set(st, CP_EXIT_USAGE, "'%s' is not a coalprobe report: %s", path, why);
    cp_status_hint(st, "show reads the JSON reports of coalprobe, coalprobe trace and compare "
                       "(--format json)");
    return CP_EXIT_USAGE;
}

/* The page (--format html) of any kind of report, drawn from the document as it is. */
static int cp_show_page(const cJSON *doc, cp_report_kind kind, const char *path, FILE *out,
                        cp_status *st)
{
    if (kind == CP_REPORT_KIND_SWEEP || kind == CP_REPORT_KIND_TRACE)
        CP_TRY(cp_show_check_schema(doc, path, kind == CP_REPORT_KIND_TRACE, st));
    cp_html_options page = {.no_source = 0, .restrict_sources = 1}; /* a report from elsewhere */
    cJSON *columns = kind == CP_REPORT_KIND_TRACE ? cp_trace_columns_describe() : NULL;
    page.columns = columns;
    int rc = cp_html_write(out, doc, &page, st);
    cJSON_Delete(columns);
    return rc;
}

/* Reads the report, shows it by its kind into the output. */
static int cp_show_run(cp_show_cli *c, cp_status *st)
{
    if (c->output && cp_path_same_file(c->output, c->path))
        return cp_status_usage(st, "write it to another file",
                               "-o '%s' is the report being shown: writing there would "
                               "overwrite it",
                               c->output);
    if ((!c->output || strcmp(c->output, "-") == 0) && cp_output_stdout_is_input(c->path))
        return cp_output_refuse_stdout_input(c->path, "being shown", st); /* 1<>x.json */
    if (c->show.format == CP_FORMAT_HTML)
        CP_TRY(cp_output_check_page(c->output, st));
    char *text = NULL;
    cJSON *doc = NULL;
    cp_report_kind kind = CP_REPORT_KIND_NONE;
    cp_output out;
    int rc = cp_show_read(c->path, &text, &doc, &kind, st);
    if (rc == CP_EXIT_OK)
        rc = cp_output_open(&out, c->output, st);
    if (rc == CP_EXIT_OK) {
        int fd = c->output ? -1 : STDOUT_FILENO;
        cp_report_view view = {.width = c->wide ? 0 : cp_term_width(fd),
                               .wide = c->wide,
                               .color = cp_term_color(c->color, fd)};
        c->show.view = &view;
        rc = cp_output_begin(&out, st);
        if (rc == CP_EXIT_OK && c->show.format == CP_FORMAT_HTML)
            rc = cp_show_page(doc, kind, c->path, out.file, st);
        else if (rc == CP_EXIT_OK && kind == CP_REPORT_KIND_SWEEP)
            rc = cp_show_sweep(doc, c->path, &c->show, out.file, st);
        else if (rc == CP_EXIT_OK && kind == CP_REPORT_KIND_TRACE)
            rc = cp_trace_show(doc, c->path, &c->show, out.file, st);
        else if (rc == CP_EXIT_OK)
            rc = cp_show_compare(doc, c->path, &c->show, out.file, st);
        rc = cp_output_close(&out, rc, st);
    }
    cJSON_Delete(doc);
    free(text);
    return rc;
}

int cp_show_main(int argc, char **argv)
{
    cp_status st;
    cp_status_clear(&st);
    cp_show_cli c;
    int rc = cp_show_parse(argc, argv, &c, &st);
    if (rc == CP_EXIT_OK && c.help) {
        cp_help_print_command(stdout, cp_commands_show());
        return CP_EXIT_OK;
    }
    if (rc == CP_EXIT_OK)
        rc = cp_show_run(&c, &st);
    if (rc != CP_EXIT_OK && rc < 128) { /* CP_EXIT_PIPE: quietly */
        fprintf(stderr, "coalprobe: %s\n", st.message);
        if (st.hint[0])
            fprintf(stderr, "hint: %s\n", st.hint);
    }
    return rc;
}
