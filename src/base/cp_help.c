/* cp_help.c: help printed from option tables, wrapped to 80 columns, checked against the
 * getopt_long tables that parse the options; the nearest name to a slip (cp_help.h). */
#include "cp_help.h"

#include <string.h>

void cp_help_wrap(FILE *out, const char *text, int column, int indent)
{
    int col = column, fresh = 1, need_indent = 0; /* fresh: no word on this line yet */
    for (const char *p = text; *p;) {
        if (*p == '\n') {
            fputc('\n', out);
            col = indent;
            fresh = need_indent = 1;
            p++;
            continue;
        }
        if (*p == ' ') {
            p++;
            continue;
        }
        int w = (int)strcspn(p, " \n");
        if (!fresh && col + 1 + w > CP_HELP_WIDTH) {
            fputc('\n', out);
            col = indent;
            fresh = need_indent = 1;
        }
        if (need_indent) { /* indented only once a word comes: no trailing blanks */
            fprintf(out, "%*s", indent, "");
            need_indent = 0;
        }
        if (!fresh) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, (size_t)w, out);
        col += w;
        fresh = 0;
        p += w;
    }
    fputc('\n', out);
}

void cp_help_option_label(const cp_help_option *o, char *buf, size_t len)
{
    char shortopt[8] = "";
    if (o->short_name)
        snprintf(shortopt, sizeof shortopt, "-%c, ", o->short_name);
    snprintf(buf, len, "  %s--%s%s%s", shortopt, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

void cp_help_print_option(FILE *out, const cp_help_option *o)
{
    char label[128];
    cp_help_option_label(o, label, sizeof label);
    int len = (int)strlen(label);
    if (len + 2 <= CP_HELP_TEXT_COLUMN)
        fprintf(out, "%-*s", CP_HELP_TEXT_COLUMN, label);
    else
        fprintf(out, "%s\n%*s", label, CP_HELP_TEXT_COLUMN, "");
    cp_help_wrap(out, o->text, CP_HELP_TEXT_COLUMN, CP_HELP_TEXT_COLUMN);
}

void cp_help_print_options(FILE *out, const cp_help_option *options, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (options[i].section) {
            char title[256];
            snprintf(title, sizeof title, "%s:", options[i].section);
            fputs(i ? "\n" : "", out);
            cp_help_wrap(out, title, 0, 0);
        }
        cp_help_print_option(out, &options[i]);
    }
}

/* The column an example's explanation starts in. */
#define CP_HELP_EXAMPLE_COLUMN 42

void cp_help_print_examples(FILE *out, const cp_help_example *examples, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int len = 2 + (int)strlen(examples[i].command);
        if (len + 2 <= CP_HELP_EXAMPLE_COLUMN) { /* two blanks at least before the text */
            fprintf(out, "  %-*s", CP_HELP_EXAMPLE_COLUMN - 2, examples[i].command);
            cp_help_wrap(out, examples[i].says, CP_HELP_EXAMPLE_COLUMN, CP_HELP_EXAMPLE_COLUMN);
        } else {
            fprintf(out, "  %s\n      ", examples[i].command);
            cp_help_wrap(out, examples[i].says, 6, 6);
        }
    }
}

void cp_help_print_command(FILE *out, const cp_help_command *c)
{
    fputs("Usage: ", out);
    for (const char *line = c->usage; *line;) {
        size_t len = strcspn(line, "\n");
        fprintf(out, "%s%.*s\n", line == c->usage ? "" : "       ", (int)len, line);
        line += len + (line[len] ? 1 : 0);
    }
    fputc('\n', out);
    cp_help_wrap(out, c->about, 0, 0);
    fputc('\n', out);
    cp_help_print_options(out, c->options, c->noptions);
    fputs("\nExamples:\n", out);
    cp_help_print_examples(out, c->examples, c->nexamples);
    fputs("\nExit codes: ", out);
    cp_help_wrap(out, c->exit_codes, 12, 0);
}

/* The option named `name` in the table, NULL when there is none. */
static const struct option *cp_help_find(const struct option *table, const char *name)
{
    for (; table->name; table++)
        if (strcmp(table->name, name) == 0)
            return table;
    return NULL;
}

/* 1 when name is one of names[0..n). */
static int cp_help_among(const char *name, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

/* The help entry of the option named `name`, NULL when there is none. */
static const cp_help_option *cp_help_entry(const cp_help_option *options, size_t n,
                                           const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(options[i].name, name) == 0)
            return &options[i];
    return NULL;
}

int cp_help_check(const cp_help_option *options, size_t n, const struct option *table,
                  const char *const *elsewhere, size_t nelsewhere, cp_status *st)
{
    for (const struct option *t = table; t->name; t++) {
        const cp_help_option *o = cp_help_entry(options, n, t->name);
        if (!o && !cp_help_among(t->name, elsewhere, nelsewhere))
            return cp_status_set(st, CP_EXIT_RUNTIME, "--%s is parsed but has no help", t->name);
        if (o && o->short_name && o->short_name != t->val)
            return cp_status_set(st, CP_EXIT_RUNTIME, "--%s is not -%c, as its help says", t->name,
                                 o->short_name);
    }
    for (size_t i = 0; i < n; i++) {
        const struct option *t = cp_help_find(table, options[i].name);
        if (!t)
            return cp_status_set(st, CP_EXIT_RUNTIME, "--%s has help but is not parsed",
                                 options[i].name);
        if ((options[i].arg != NULL) != (t->has_arg != no_argument))
            return cp_status_set(st, CP_EXIT_RUNTIME,
                                 "--%s: the help says it takes %s, the parser %s", options[i].name,
                                 options[i].arg ? "a value" : "none",
                                 t->has_arg != no_argument ? "a value" : "none");
        if (options[i].complete == CP_HELP_VALUES && !options[i].values)
            return cp_status_set(st, CP_EXIT_RUNTIME, "--%s: its values are not listed",
                                 options[i].name);
    }
    return CP_EXIT_OK;
}

/* The optimal string alignment distance of a and b, at most 64 characters each (longer: 99). */
static int cp_help_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    int d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

const char *cp_help_nearest(const char *word, const char *const *names, size_t n)
{
    const char *best = NULL;
    int best_d = 3; /* at most 2 edits */
    for (size_t i = 0; i < n; i++) {
        int d = cp_help_distance(word, names[i]);
        if (d < best_d && 2 * (size_t)d < strlen(word)) {
            best = names[i];
            best_d = d;
        }
    }
    return best;
}
