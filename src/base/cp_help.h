/* cp_help.h: help generated from tables: the options of a command (each with its value's name,
 * what it does, its default and the values it takes), its usage, what it is for and its
 * examples, printed as --help shows them (wrapped to 80 columns), checked against the
 * getopt_long table that parses them so that help and parser cannot drift; and the name nearest
 * a mistyped one. The man page and the shell completions are written from the same tables
 * (src/app/cp_man.c, src/app/cp_complete.c). */
#ifndef CP_HELP_H
#define CP_HELP_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "cp_status.h"

/* The width help is wrapped to, and the column an option's text starts in. */
#define CP_HELP_WIDTH 80
#define CP_HELP_TEXT_COLUMN 20

/* What a shell completes for an option's value. */
typedef enum {
    CP_HELP_ANY,    /* nothing: a number, a name, an expression */
    CP_HELP_VALUES, /* one of `values` */
    CP_HELP_FILE,   /* a file name */
    CP_HELP_DIR,    /* a directory name */
} cp_help_complete;

/* One option of a command. */
typedef struct cp_help_option {
    const char *section; /* opens a section with this title ("Output"); NULL: continues one */
    const char *name;    /* the long option without "--" */
    char short_name;     /* 'o' for -o; 0 for none */
    const char *arg;     /* the value's name ("FILE"); NULL for a flag */
    const char *text;    /* what it does, its default and range: sentences, unwrapped */
    cp_help_complete complete;
    const char *values; /* CP_HELP_VALUES: the values, separated by spaces */
} cp_help_option;

/* An example command and what it shows. */
typedef struct cp_help_example {
    const char *command;
    const char *says;
} cp_help_example;

/* A command: `coalprobe NAME`. */
typedef struct cp_help_command {
    const char *name;    /* "trace" */
    const char *summary; /* one line: what it does */
    const char *usage;   /* the usage lines without "Usage: ", separated by '\n' */
    const char *about;   /* what it does and teaches: paragraphs separated by "\n\n" */
    const cp_help_option *options;
    size_t noptions;
    const cp_help_example *examples;
    size_t nexamples;
    const char *exit_codes; /* "0 ...; 1 ...": unwrapped */
} cp_help_command;

/* Writes text wrapped to CP_HELP_WIDTH columns: the first line from column `column` (the
 * caller has written that many), the others indented by `indent`; a '\n' in text starts a new
 * line, an empty line between paragraphs is kept. Ends with a newline. */
void cp_help_wrap(FILE *out, const char *text, int column, int indent);

/* "  -o, --output FILE" for o, into buf. */
void cp_help_option_label(const cp_help_option *o, char *buf, size_t len);

/* One option as --help shows it: its label, then its text from CP_HELP_TEXT_COLUMN (on the
 * next line when the label is too long), wrapped. */
void cp_help_print_option(FILE *out, const cp_help_option *o);

/* The options, each section's title on a line of its own. */
void cp_help_print_options(FILE *out, const cp_help_option *options, size_t n);

/* The examples, each command with what it shows beside it (or under it when it is long). */
void cp_help_print_examples(FILE *out, const cp_help_example *examples, size_t n);

/* A command's whole help: usage, what it does, options, examples, exit codes. */
void cp_help_print_command(FILE *out, const cp_help_command *c);

/* CP_EXIT_OK when every option of the getopt_long table `table` (ended by a NULL name) is in
 * options or among the `elsewhere` names (documented by other means, e.g. the families'
 * parameters), and every option in options is in the table with a value exactly when it has an
 * `arg`, its short name (if any) the table's `val` (getopt_long returns the short option's
 * letter for the long one); otherwise CP_EXIT_RUNTIME naming the first that is not. */
int cp_help_check(const cp_help_option *options, size_t n, const struct option *table,
                  const char *const *elsewhere, size_t nelsewhere, cp_status *st);

/* The name among names[0..n) nearest to word by edit distance (insertions, deletions,
 * substitutions, transpositions of neighbours), when it is near enough to be a slip: at most 2
 * edits and fewer than half the word's length; NULL otherwise. */
const char *cp_help_nearest(const char *word, const char *const *names, size_t n);

#endif
