/* main.c: coalprobe's entry point: parses the command line, runs the job, maps the outcome
 * to an exit code. The only place that exits. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp_app.h"
#include "cp_commands.h"
#include "cp_complete.h"
#include "cp_doctor.h"
#include "cp_show_main.h"
#include "measure/cp_measure.h"
#include "cp_cli.h"
#include "report/cp_report.h"
#include "trace/cp_trace.h"
#include "base/cp_base.h"

/* True when the command line asks for JSON, even if parsing it failed further on. */
static int cp_main_wants_json(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--format=json") == 0)
            return 1;
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc && strcmp(argv[i + 1], "json") == 0)
            return 1;
    }
    return 0;
}

/* The comparison of o's reports as JSON to out: by the trace layer for trace reports. */
static int cp_main_compare_to(const cp_compare_options *o, int json, FILE *out, cp_status *st)
{
    if (cp_trace_compare_is_trace(o->base_path) || cp_trace_compare_is_trace(o->new_path))
        return cp_trace_compare_files(o->base_path, o->new_path, o->tolerance, json, out, st);
    return cp_compare_files(o->base_path, o->new_path, o->tolerance, json, out, st);
}

/* cp_html_write_from's writer: the comparison of the options at arg, as JSON. */
static int cp_main_compare_json(FILE *json, void *arg, cp_status *st)
{
    return cp_main_compare_to(arg, 1, json, st);
}

/* coalprobe compare: the comparison goes to stdout or, complete, to -o FILE. */
static int cp_main_compare(int argc, char **argv, const char *command)
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
        input = cp_output_overwrites(o.output, o.base_path)  ? o.base_path
                : cp_output_overwrites(o.output, o.new_path) ? o.new_path
                                                             : NULL;
    if (rc == CP_EXIT_OK && input)
        rc = cp_output_refuse_overwrite(o.output, input, "being compared", &st);
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
            rc = cp_html_write_from(out.file, cp_main_compare_json, &o, NULL, &st);
        else
            rc = cp_main_compare_to(&o, o.json, out.file, &st);
        /* a regression is a written report */
        int written = cp_output_close(&out, rc == CP_EXIT_MISMATCH ? CP_EXIT_OK : rc, &st);
        rc = written == CP_EXIT_OK ? rc : written;
    }
    if (rc == CP_EXIT_MISMATCH)
        fprintf(stderr, "coalprobe: %s\n", st.message);
    else if (rc != CP_EXIT_OK && rc < 128) /* CP_EXIT_PIPE: quietly */
        cp_app_report_failure(cp_main_wants_json(argc, argv), stdout, command, &st);
    return rc;
}

/* 1 for the hidden options the build runs to write the man page and the shell completions from
 * the help tables: --help-man, --completions bash|zsh|fish. */
static int cp_main_generated(char **argv)
{
    return strcmp(argv[1], "--help-man") == 0 || strcmp(argv[1], "--completions") == 0;
}

static int cp_main_generate(int argc, char **argv)
{
    if (strcmp(argv[1], "--help-man") == 0 && argc == 2)
        return cp_man_write(stdout);
    if (strcmp(argv[1], "--completions") == 0 && argc == 3)
        return cp_complete_write(stdout, argv[2]);
    fprintf(stderr, "coalprobe: usage: coalprobe --help-man | --completions bash|zsh|fish\n");
    return CP_EXIT_USAGE;
}

/* Opens /dev/null on each of descriptors 0, 1 and 2 that is closed (`coalprobe ... 2>&-`), so
 * that no file coalprobe opens later gets one of them: a report file on descriptor 2 would
 * receive every message meant for stderr. Returns 0, or -1 when /dev/null cannot be opened. */
static int cp_main_open_standard_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY); /* the lowest free: fd */
        if (got != fd) {
            if (got >= 0)
                close(got);
            return -1;
        }
    }
    return 0;
}

/* The end of every command: what it printed with stdio (help, --version, --list, doctor) is
 * flushed, and a write to standard output that failed at any point (`--help > /dev/full`) is
 * exit 1 with the reason; a reader that went away is CP_EXIT_PIPE, quietly. */
static int cp_main_finish(int rc)
{
    cp_status st;
    cp_status_clear(&st);
    int failed = cp_output_stdout_failed(&st);
    if (failed == CP_EXIT_OK)
        return rc;
    if (failed == CP_EXIT_RUNTIME)
        fprintf(stderr, "coalprobe: %s\n", st.message);
    return rc == CP_EXIT_OK ? failed : rc;
}

static int cp_main_run(int argc, char **argv);

int main(int argc, char **argv)
{
    if (cp_main_open_standard_fds() != 0)
        return CP_EXIT_RUNTIME; /* nowhere safe to say so */
    return cp_main_finish(cp_main_run(argc, argv));
}

/* Runs the command the command line names; returns its exit code. */
static int cp_main_run(int argc, char **argv)
{
    cp_phase_start();
    cp_status st;
    cp_options o;
    cp_status_clear(&st);
    cp_output_catch_signals(); /* a closed pipe or a full file: errors cp_output reports */
    char *command = cp_cli_command_string(argc, argv);
    if (argc > 1 && strcmp(argv[1], "trace") == 0) {
        free(command);
        return cp_trace_main(argc - 1, argv + 1);
    }
    if (argc > 1 && strcmp(argv[1], "doctor") == 0) {
        free(command);
        return cp_doctor_main(argc, argv);
    }
    if (argc > 1 && strcmp(argv[1], "show") == 0) {
        free(command);
        return cp_show_main(argc, argv);
    }
    if (argc > 1 && strcmp(argv[1], "help") == 0) {
        free(command);
        return cp_commands_help_main(argc, argv);
    }
    if (argc > 1 && cp_main_generated(argv)) { /* the man page, the completions */
        free(command);
        return cp_main_generate(argc, argv);
    }
    if (argc > 1 && strcmp(argv[1], "compare") == 0) {
        int rc = cp_main_compare(argc, argv, command ? command : "coalprobe compare");
        free(command);
        return rc;
    }
    int rc = cp_cli_parse(argc, argv, &o, &st);
    if (rc == CP_EXIT_OK) {
        if (o.show_help && argc > 1 && argv[1][0] != '-') /* coalprobe FAMILY --help */
            cp_commands_print_family(stdout, o.family);
        else if (o.show_help)
            cp_cli_print_help(stdout);
        else if (o.show_version)
            cp_doctor_print_version(stdout);
        else if (o.show_list)
            cp_cli_print_list(stdout);
        else
            rc = cp_app_run(&o, command ? command : "coalprobe", &cp_backend_cuda, &st);
        if (o.verbose && !o.show_help && !o.show_version && !o.show_list)
            cp_phase_print(stderr);
    }
    /* a mismatch is already in the report, and an interruption (128 + the signal) wrote its
     * partial report and said so; standard output closed by its reader (CP_EXIT_PIPE) ends
     * quietly; other failures left no report behind */
    if (rc != CP_EXIT_OK && rc < 128)
        cp_app_report_failure(rc != CP_EXIT_MISMATCH && cp_main_wants_json(argc, argv), stdout,
                              command ? command : "coalprobe", &st);
    cp_cli_free(&o);
    free(command);
    return rc;
}
