/* cp_cli.h: the command line: options parsed into cp_options, help and --list (--version:
 * cp_doctor.h, which asks the machine). */
#ifndef CP_CLI_H
#define CP_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "model/cp_model.h"
#include "report/cp_report.h"
#include "base/cp_base.h"

struct cp_expr;

/* Most GPUs one --devices run spreads over. */
#define CP_MAX_DEVICES 64

/* Everything the command line says. Owns its sweeps (free with cp_cli_free). */
typedef struct cp_options {
    cp_family family;
    /* the sweep of each parameter's option (cp_param), those of the family's parameters */
    cp_sweep params[CP_PARAM_MAX];
    int param_given[CP_PARAM_MAX]; /* 1: on the command line; 0: the family's default */
    /* expr family: --index (parsed once all --param names are known) and each --param */
    const char *index_text;
    struct cp_expr *expr;
    char expr_param_names[CP_EXPR_MAX_PARAMS][40];
    cp_sweep expr_params[CP_EXPR_MAX_PARAMS];
    size_t nexpr_params;
    uint64_t size_bytes;
    int size_given; /* --size was given (each family has its own default) */
    cp_format format;
    const char *output; /* NULL or "-" for stdout */
    int explain;
    uint64_t warp;
    int model_only;
    int device;
    int device_given;
    /* --devices: the GPUs to spread the sweep over (devices_all: every one the machine has) and
     * --mixed: GPUs of different kinds allowed */
    int devices[CP_MAX_DEVICES];
    size_t ndevices;
    int devices_all;
    int mixed_devices;
    /* how many timed launches a configuration takes: --reps, or the stopping rule's
     * --min-samples, --max-noise, --min-time and --max-time (the first of them given, or NULL) */
    cp_sampling sampling;
    const char *sampling_option;
    int no_counters;
    int require_counters;
    int check;
    int allow_large_sweep; /* more than CP_PLAN_MAX_CONFIGS configurations */
    int show_help, show_version, show_list;
    int verbose; /* --verbose: the time breakdown on stderr at the end */
    int wide;    /* --wide: the table with every column, however wide */
    cp_color_mode color;
    int quiet;          /* --quiet: no progress line */
    cp_exports exports; /* --json FILE, --csv FILE, ...: reports beside the main one */
} cp_options;

/* What `coalprobe compare` is asked to do. */
typedef struct cp_compare_options {
    const char *base_path, *new_path;
    double tolerance; /* a fraction: 0.05 is 5% */
    int json;
    int html;           /* --format html: the comparison as a page */
    const char *output; /* NULL or "-" for stdout */
    int show_help;
} cp_compare_options;

/* Parses `coalprobe compare BASE NEW [--tolerance T] [--format table|json|html] [-o FILE]`
 * (argv[1] is "compare"). CP_EXIT_USAGE with a message and a hint on a bad command. */
int cp_cli_parse_compare(int argc, char **argv, cp_compare_options *o, cp_status *st);

void cp_cli_print_compare_help(FILE *out);

/* The getopt_long tables of a sweep and of compare (ended by a NULL name), for the check that
 * their help (cp_commands.c) names every option they parse. */
const struct option *cp_cli_option_table(void);
const struct option *cp_cli_compare_option_table(void);

/* Parses spec as the sweep of parameter p of o's family into o (replacing what o held). */
int cp_cli_parse_param(cp_options *o, cp_param p, const char *spec, cp_status *st);

/* Parses argv into o. Returns CP_EXIT_OK or CP_EXIT_USAGE with a message naming the bad
 * token and a hint. o must be freed with cp_cli_free in either case. */
int cp_cli_parse(int argc, char **argv, cp_options *o, cp_status *st);

void cp_cli_free(cp_options *o);

void cp_cli_print_help(FILE *out);
void cp_cli_print_list(FILE *out);

/* The command line joined into one string (words with shell-special characters quoted);
 * the caller frees it. */
char *cp_cli_command_string(int argc, char **argv);

/* 1 when the command line asks for JSON (--format json), even if parsing it failed further on:
 * a failure is then reported as a JSON error document. */
int cp_cli_wants_json(int argc, char **argv);

#endif
