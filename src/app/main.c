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
#include "measure/cp_measure.h"
#include "cp_cli.h"
#include "base/cp_base.h"

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
    const cp_command *cmd = argc > 1 ? cp_commands_find(argv[1]) : NULL;
    if (cmd) /* trace, show, compare, doctor, help: the command table */
        return cmd->run(argc, argv);
    if (argc > 1 && cp_main_generated(argv)) /* the man page, the completions */
        return cp_main_generate(argc, argv);
    char *command = cp_cli_command_string(argc, argv);
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
        cp_app_report_failure(rc != CP_EXIT_MISMATCH && cp_cli_wants_json(argc, argv), stdout,
                              command ? command : "coalprobe", &st);
    cp_cli_free(&o);
    free(command);
    return rc;
}
