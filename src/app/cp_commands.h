/* cp_commands.h: coalprobe's commands and their help, from the tables the parsers read: each
 * family's parameters with defaults and ranges from its descriptor (src/model/cp_family.c),
 * the options of a sweep, compare's, doctor's and trace's; `coalprobe help [COMMAND]`, the
 * help of `coalprobe FAMILY --help`, and the hint after an unknown command. The man page
 * (cp_man.c) and the shell completions (cp_complete.c) are written from the same tables. */
#ifndef CP_COMMANDS_H
#define CP_COMMANDS_H

#include <stdio.h>

#include "model/cp_model.h"
#include "base/cp_base.h"

/* The most options a family has: its own, its parameters, --size. */
#define CP_COMMANDS_FAMILY_MAX (CP_FAMILY_PARAMS_MAX + 4)

/* A family's options as help shows them, built from its descriptor: its own options (expr's
 * --index and --param), its parameters in the order of their options (what each is, its values
 * or range, its default), then --size. */
typedef struct cp_family_options {
    cp_help_option options[CP_COMMANDS_FAMILY_MAX];
    size_t n;
    char text[CP_COMMANDS_FAMILY_MAX][480];
    char values[CP_COMMANDS_FAMILY_MAX][160];
} cp_family_options;

/* Fills o with the options of family f. */
void cp_commands_family_options(cp_family f, cp_family_options *o);

/* The options every family takes (output, measurement, other), with --format's values. */
const cp_help_option *cp_commands_sweep_options(size_t *n);

/* The commands that are not families; trace's comes from the trace layer. */
/* show's help table (its options are parsed in cp_show_main.c). */
const cp_help_command *cp_commands_show(void);
const cp_help_command *cp_commands_compare(void);
const cp_help_command *cp_commands_doctor(void);

/* What a command takes after its options, for the shell completions. */
typedef enum cp_command_operands {
    CP_OPERANDS_NONE,
    CP_OPERANDS_PROGRAM,     /* a program and its arguments (trace) */
    CP_OPERANDS_REPORT,      /* one JSON report (show) */
    CP_OPERANDS_TWO_REPORTS, /* two JSON reports (compare) */
    CP_OPERANDS_COMMAND,     /* a command word (help) */
} cp_command_operands;

/* A command that is not a family, one entry of the command table: main runs a command word
 * through its entry, and help, the man page and the completions list the commands from it. */
typedef struct cp_command {
    const char *name;
    /* Runs it (argv[1] is the command word); returns the exit code. */
    int (*run)(int argc, char **argv);
    /* Its help table; NULL for help, whose help is --help's and whose summary is below. */
    const cp_help_command *(*help)(void);
    const char *summary; /* help's summary (the others': their help table's) */
    cp_command_operands operands;
} cp_command;

/* The commands that are not families, in the order help lists them: trace, show, compare, doctor,
 * help; n receives how many. */
const cp_command *cp_commands_table(size_t *n);

/* The command named word, or NULL (a family or no command). */
const cp_command *cp_commands_find(const char *word);

/* A command's summary: its help table's, or the entry's own (help). */
const char *cp_commands_summary(const cp_command *c);

/* Every command word: the families (the first is the default), then the command table's; n
 * receives how many. */
const char *const *cp_commands_names(size_t *n);

/* coalprobe --help, coalprobe FAMILY --help. */
void cp_commands_print_help(FILE *out);
void cp_commands_print_family(FILE *out, cp_family f);

/* coalprobe help [COMMAND] (argv[1] is "help"): the help of COMMAND, or --help's. Returns the
 * exit code (2 for a command that does not exist, said on stderr with the nearest). */
int cp_commands_help_main(int argc, char **argv);

/* Records "unknown command 'word'" in st with a hint naming the nearest command, if one is near,
 * and every command; returns CP_EXIT_USAGE. */
int cp_commands_unknown(const char *word, cp_status *st);

/* Records "unknown option 'word'" (word as written: "--strid=3") in st with a hint naming the
 * nearest option of the getopt_long table, if one is near, and the help of `family`'s command;
 * returns CP_EXIT_USAGE. */
int cp_commands_unknown_option(const char *word, const struct option *table, cp_family family,
                               cp_status *st);

#endif
