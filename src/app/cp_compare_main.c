/* cp_compare_main.c: coalprobe compare: the command line, the reports refused as its output,
 * the output (by the rules of -o) and the layer that compares their kind: sweeps (report),
 * traces (trace); a page drawn from the comparison's JSON. */
#include "cp_compare_main.h"

#include <stdlib.h>
#include <string.h>

#include "cp_app.h"
#include "cp_cli.h"
#include "report/cp_report.h"
#include "trace/cp_trace.h"
#include "base/cp_base.h"

/* The comparison of o's reports as JSON to out: by the trace layer for trace reports. */
static int cp_compare_main_to(const cp_compare_options *o, int json, FILE *out, cp_status *st)
{
    if (cp_trace_compare_is_trace(o->base_path) || cp_trace_compare_is_trace(o->new_path))
        return cp_trace_compare_files(o->base_path, o->new_path, o->tolerance, json, out, st);
    return cp_compare_files(o->base_path, o->new_path, o->tolerance, json, out, st);
}

/* cp_html_write_from's writer: the comparison of the options at arg, as JSON. */
static int cp_compare_main_json(FILE *json, void *arg, cp_status *st)
{
    return cp_compare_main_to(arg, 1, json, st);
}

/* The comparison of the command line's reports to stdout or, complete, to -o FILE; command is
 * the command line, for a failure's report. */
static int cp_compare_main_run(int argc, char **argv, const char *command)
{
    cp_compare_options o;
    cp_status st;
    cp_status_clear(&st);
    int rc = cp_cli_parse_compare(argc, argv, &o, &st);
    if (rc == CP_EXIT_OK && o.show_help) {
        cp_cli_print_compare_help(stdout);
        return CP_EXIT_OK;
    }
    /* -o naming one of the reports would overwrite it: refused before anything is read */
    const char *input = NULL;
    if (rc == CP_EXIT_OK && o.output)
        input = cp_path_same_file(o.output, o.base_path)  ? o.base_path
                : cp_path_same_file(o.output, o.new_path) ? o.new_path
                                                          : NULL;
    if (input) {
        rc = cp_status_set(&st, CP_EXIT_USAGE,
                           "-o '%s' is the report '%s' being compared: writing there would "
                           "overwrite it",
                           o.output, input);
        cp_status_hint(&st, "write the comparison to another file");
    }
    /* nor standard output (compare b.json n.json 1<>b.json) */
    if (rc == CP_EXIT_OK && (!o.output || strcmp(o.output, "-") == 0))
        input = cp_output_stdout_is_input(o.base_path)  ? o.base_path
                : cp_output_stdout_is_input(o.new_path) ? o.new_path
                                                        : NULL;
    if (rc == CP_EXIT_OK && input)
        rc = cp_output_refuse_stdout_input(input, "being compared", &st);
    if (rc == CP_EXIT_OK && o.html)
        rc = cp_output_check_page(o.output, &st);
    cp_output out;
    if (rc == CP_EXIT_OK)
        rc = cp_output_open(&out, o.output, &st);
    if (rc == CP_EXIT_OK)
        rc = cp_output_begin(&out, &st);
    if (rc == CP_EXIT_OK) {
        /* a trace report (kind "trace") is compared by the trace layer; a page is drawn from
         * the comparison's JSON */
        if (o.html)
            rc = cp_html_write_from(out.file, cp_compare_main_json, &o, NULL, &st);
        else
            rc = cp_compare_main_to(&o, o.json, out.file, &st);
        /* a regression is a written report */
        int written = cp_output_close(&out, rc == CP_EXIT_MISMATCH ? CP_EXIT_OK : rc, &st);
        rc = written == CP_EXIT_OK ? rc : written;
    }
    if (rc == CP_EXIT_MISMATCH)
        fprintf(stderr, "coalprobe: %s\n", st.message);
    else if (rc != CP_EXIT_OK && rc < 128) /* CP_EXIT_PIPE: quietly */
        cp_app_report_failure(cp_cli_wants_json(argc, argv), stdout, command, &st);
    return rc;
}

int cp_compare_main(int argc, char **argv)
{
    char *command = cp_cli_command_string(argc, argv);
    int rc = cp_compare_main_run(argc, argv, command ? command : "coalprobe compare");
    free(command);
    return rc;
}
