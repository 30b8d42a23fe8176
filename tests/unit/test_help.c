/* test_help.c: help generated from the tables the parsers read (cp_help.h, cp_commands.h): text
 * wrapped to 80 columns, the nearest command to a slip, every parsed option in its command's help
 * and nothing in a help that is not parsed, each family's parameters with their defaults, values
 * and ranges from its descriptor, and every value the help (and the completions) offer taken by
 * the parser. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cp_cli.h"
#include "app/cp_commands.h"
#include "app/cp_complete.h"
#include "app/cp_doctor.h"
#include "trace/cp_trace.h"
#include "cp_test.h"

/* What f wrote to a memory stream, NUL-terminated; the caller frees it. */
typedef struct cp_test_text {
    char *data;
    size_t len;
    FILE *f;
} cp_test_text;

static FILE *cp_test_open(cp_test_text *t)
{
    t->data = NULL;
    t->len = 0;
    t->f = open_memstream(&t->data, &t->len);
    return t->f;
}

static char *cp_test_close(cp_test_text *t)
{
    fclose(t->f);
    return t->data;
}

/* Every line of text at most 80 columns and without a blank at its end. */
static void cp_test_fits(const char *what, const char *text)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        if (len > CP_HELP_WIDTH || (len && line[len - 1] == ' ')) {
            fprintf(stderr, "%s: '%.*s'\n", what, (int)len, line);
            CHECK(!"a line over 80 columns or with a blank at its end");
        }
        line += len + (line[len] ? 1 : 0);
    }
}

static void test_wrap(void)
{
    cp_test_text t;
    cp_help_wrap(cp_test_open(&t),
                 "one two three four five six seven eight nine ten eleven twelve thirteen "
                 "fourteen fifteen sixteen\n\nseventeen",
                 70, 4);
    char *got = cp_test_close(&t);
    /* 10 columns left on the first line: "one two"; then indented by 4 */
    CHECK_STR_CONTAINS(got, "one two\n    three four");
    CHECK_STR_CONTAINS(got, "sixteen\n\n    seventeen\n"); /* the blank line has no blanks */
    cp_test_fits("wrap", got);
    free(got);
}

static void test_nearest(void)
{
    size_t n;
    const char *const *names = cp_commands_names(&n);
    const char *near = cp_help_nearest("strid", names, n);
    CHECK(near && strcmp(near, "stride") == 0);
    near = cp_help_nearest("dcotor", names, n); /* two neighbours swapped: one edit */
    CHECK(near && strcmp(near, "doctor") == 0);
    near = cp_help_nearest("gemn", names, n);
    CHECK(near && strcmp(near, "gemm") == 0);
    near = cp_help_nearest("trase", names, n);
    CHECK(near && strcmp(near, "trace") == 0);
    CHECK(cp_help_nearest("frobnicate", names, n) == NULL);
    CHECK(cp_help_nearest("xy", names, n) == NULL); /* two edits of two letters: no guess */
    /* the hint names every command, trace, compare and doctor included */
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_commands_unknown("compar", &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "unknown command 'compar'");
    CHECK_STR_CONTAINS(st.hint, "did you mean 'compare'?");
    for (size_t i = 0; i < n; i++)
        CHECK_STR_CONTAINS(st.hint, names[i]);
}

/* The command table: what main dispatches, each entry found by its word and running something,
 * its help table's name its own; the command words after the families; --help, the man page and
 * the completions listing each one. */
static void test_command_table(void)
{
    static const char *const order[] = {"trace", "show", "compare", "doctor", "help"};
    size_t n, nnames;
    const cp_command *cmds = cp_commands_table(&n);
    const char *const *names = cp_commands_names(&nnames);
    CHECK_EQ_U64(n, CP_COUNT_OF(order));
    CHECK_EQ_U64(nnames, (uint64_t)CP_FAMILY_COUNT + n);
    cp_test_text help, man, zsh;
    cp_commands_print_help(cp_test_open(&help));
    cp_man_write(cp_test_open(&man));
    cp_complete_write(cp_test_open(&zsh), "zsh");
    char *help_text = cp_test_close(&help), *man_text = cp_test_close(&man);
    char *zsh_text = cp_test_close(&zsh);
    for (size_t i = 0; i < n && i < CP_COUNT_OF(order); i++) {
        CHECK(strcmp(cmds[i].name, order[i]) == 0);
        CHECK(cp_commands_find(order[i]) == &cmds[i]);
        CHECK(cmds[i].run != NULL);
        CHECK(cmds[i].help == NULL || strcmp(cmds[i].help()->name, cmds[i].name) == 0);
        CHECK(strlen(cp_commands_summary(&cmds[i])) > 10);
        CHECK(strcmp(names[CP_FAMILY_COUNT + i], cmds[i].name) == 0);
        char line[64];
        snprintf(line, sizeof line, "\n  %-11s", cmds[i].name);
        CHECK_STR_CONTAINS(help_text, line);
        snprintf(line, sizeof line, ".SS %s\n", cmds[i].name);
        CHECK_STR_CONTAINS(man_text, line);
        snprintf(line, sizeof line, "_coalprobe_%s() {", cmds[i].name);
        CHECK_STR_CONTAINS(zsh_text, line);
    }
    CHECK(cp_commands_find("stride") == NULL); /* a family is no command of the table */
    CHECK(cp_commands_find("gemm") == NULL);
    CHECK(cp_commands_find("--help-man") == NULL);
    CHECK(cp_commands_find("nope") == NULL);
    free(help_text);
    free(man_text);
    free(zsh_text);
}

/* Each command's help names exactly the options its parser reads; the families' parameters, their
 * own options and --size are documented by their descriptors. */
static void test_help_matches_parsers(void)
{
    cp_status st;
    const char *elsewhere[CP_PARAM_MAX + 3];
    size_t ne = 0;
    for (cp_param p = 0; p < cp_param_count(); p++)
        elsewhere[ne++] = cp_param_option(p) + 2;
    elsewhere[ne++] = "size";
    elsewhere[ne++] = "param";
    size_t n;
    const cp_help_option *sweep = cp_commands_sweep_options(&n);
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_help_check(sweep, n, cp_cli_option_table(), elsewhere, ne, &st), CP_EXIT_OK);
    if (st.code)
        fprintf(stderr, "sweep: %s\n", st.message);
    const cp_help_command *cmds[] = {cp_commands_compare(), cp_commands_doctor(), cp_trace_help()};
    const struct option *tables[] = {cp_cli_compare_option_table(), cp_doctor_option_table(),
                                     cp_trace_option_table()};
    for (size_t i = 0; i < CP_COUNT_OF(cmds); i++) {
        cp_status_clear(&st);
        CHECK_EQ_U64(cp_help_check(cmds[i]->options, cmds[i]->noptions, tables[i], NULL, 0, &st),
                     CP_EXIT_OK);
        if (st.code)
            fprintf(stderr, "%s: %s\n", cmds[i]->name, st.message);
    }
    /* the check fails both ways: an option parsed without help, help of an option not parsed,
     * a value the parser does not expect */
    static const struct option table[] = {{"top", required_argument, NULL, 't'},
                                          {"quiet", no_argument, NULL, 'q'},
                                          {NULL, 0, NULL, 0}};
    const cp_help_option one[] = {{NULL, "top", 't', "N", "top", CP_HELP_ANY, NULL}};
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_help_check(one, 1, table, NULL, 0, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "--quiet is parsed but has no help");
    const cp_help_option two[] = {{NULL, "top", 't', "N", "top", CP_HELP_ANY, NULL},
                                  {NULL, "quiet", 'q', NULL, "quiet", CP_HELP_ANY, NULL},
                                  {NULL, "loud", 0, NULL, "loud", CP_HELP_ANY, NULL}};
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_help_check(two, 3, table, NULL, 0, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "--loud has help but is not parsed");
    const cp_help_option three[] = {{NULL, "top", 't', NULL, "top", CP_HELP_ANY, NULL},
                                    {NULL, "quiet", 'q', NULL, "quiet", CP_HELP_ANY, NULL}};
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_help_check(three, 2, table, NULL, 0, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "--top: the help says it takes none, the parser a value");
    const cp_help_option four[] = {{NULL, "top", 'n', "N", "top", CP_HELP_ANY, NULL},
                                   {NULL, "quiet", 'q', NULL, "quiet", CP_HELP_ANY, NULL}};
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_help_check(four, 2, table, NULL, 0, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "--top is not -n");
}

/* coalprobe ARGS... parses (the expr family given an expression). */
static int cp_test_parses(const char *family, const char *option, const char *value)
{
    char *argv[] = {
        "coalprobe", (char *)family, (char *)option, (char *)value, "--model", "--index", "i",
        NULL};
    int argc = strcmp(family, "expr") == 0 ? 7 : 5;
    cp_options o;
    cp_status st;
    cp_status_clear(&st);
    int rc = cp_cli_parse(argc, argv, &o, &st);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "coalprobe %s %s %s: %s\n", family, option, value, st.message);
    cp_cli_free(&o);
    return rc;
}

/* The help text of family f's option `name` ("" when it has none). */
static const char *cp_test_option_text(cp_family f, const char *name)
{
    static cp_family_options fo;
    cp_commands_family_options(f, &fo);
    for (size_t k = 0; k < fo.n; k++)
        if (strcmp(fo.options[k].name, name) == 0)
            return fo.options[k].text;
    return "";
}

/* Each family's help: every parameter it sweeps once, with its default and its values or range;
 * every value offered (to the completions too) is taken by the parser. */
static void test_family_options(void)
{
    for (int f = 0; cp_family_get((cp_family)f); f++) {
        const cp_family_desc *d = cp_family_get((cp_family)f);
        cp_family_options fo;
        cp_commands_family_options((cp_family)f, &fo);
        CHECK_EQ_U64(fo.n, d->noptions + d->nparams + (d->size_default ? 1 : 0));
        for (size_t i = 0; i < d->nparams; i++) {
            const cp_family_param *ps = &d->params[i];
            const cp_help_option *h = NULL;
            for (size_t k = 0; k < fo.n; k++)
                if (strcmp(fo.options[k].name, ps->option + 2) == 0)
                    h = &fo.options[k];
            CHECK(h != NULL);
            if (!h)
                continue;
            char def[80];
            snprintf(def, sizeof def, "default %s.", ps->default_spec);
            CHECK_STR_CONTAINS(h->text, def);
            CHECK_STR_CONTAINS(h->text, ps->doc);
            for (size_t k = 0; ps->names && k < ps->nnames; k++)
                CHECK_STR_CONTAINS(h->values, ps->names[k]);
        }
        for (size_t k = 0; k < fo.n; k++) {
            const cp_help_option *h = &fo.options[k];
            char option[64], values[200];
            snprintf(option, sizeof option, "--%s", h->name);
            snprintf(values, sizeof values, "%s", h->values ? h->values : "");
            for (char *v = strtok(values, " "); v; v = strtok(NULL, " "))
                CHECK_EQ_U64(cp_test_parses(d->name, option, v), CP_EXIT_OK);
        }
        cp_test_text t;
        cp_commands_print_family(cp_test_open(&t), (cp_family)f);
        char *got = cp_test_close(&t);
        cp_test_fits(d->name, got);
        CHECK_STR_CONTAINS(got, d->examples[0].command);
        CHECK_STR_CONTAINS(got, d->examples[1].command);
        free(got);
    }
    /* a check that refuses values within the limits shows the values it takes; sizes in K, M, G */
    CHECK_STR_CONTAINS(cp_test_option_text(CP_FAMILY_STRIDE, "width"),
                       "4, 8, 16 or 32; default 4.");
    CHECK_STR_CONTAINS(cp_test_option_text(CP_FAMILY_STRIDE, "size"), "4K..16G; default 256M.");
    CHECK_STR_CONTAINS(cp_test_option_text(CP_FAMILY_SMEM, "width"), "4, 8 or 16; default 4.");
    CHECK_STR_CONTAINS(cp_test_option_text(CP_FAMILY_SMEM, "stride"), "1..64; default 1..33.");
    CHECK_STR_CONTAINS(cp_test_option_text(CP_FAMILY_READONLY, "table"),
                       "128..4G; default 4K..256M:x4.");
    CHECK_STR_CONTAINS(cp_test_option_text(CP_FAMILY_GATHER, "size"), "default 64M.");
    /* --format: the report layer's formats, each taken */
    size_t n;
    const cp_help_option *sweep = cp_commands_sweep_options(&n);
    CHECK(strcmp(sweep[0].name, "format") == 0);
    for (int f = 0; f < CP_FORMAT_COUNT; f++) {
        CHECK_STR_CONTAINS(sweep[0].values, cp_report_format_name((cp_format)f));
        CHECK_EQ_U64(cp_test_parses("stride", "--format", cp_report_format_name((cp_format)f)),
                     CP_EXIT_OK);
    }
}

/* The man page and each help fit; the commands' helps have their parts. */
static void test_pages(void)
{
    const cp_help_command *cmds[] = {cp_commands_compare(), cp_commands_doctor(), cp_trace_help()};
    for (size_t i = 0; i < CP_COUNT_OF(cmds); i++) {
        cp_test_text t;
        cp_help_print_command(cp_test_open(&t), cmds[i]);
        char *got = cp_test_close(&t);
        cp_test_fits(cmds[i]->name, got);
        CHECK(strncmp(got, "Usage: coalprobe ", 17) == 0);
        CHECK_STR_CONTAINS(got, "\nExamples:\n  coalprobe ");
        CHECK_STR_CONTAINS(got, "\nExit codes: ");
        free(got);
    }
    cp_test_text t;
    cp_commands_print_help(cp_test_open(&t));
    char *got = cp_test_close(&t);
    cp_test_fits("--help", got);
    free(got);
    CHECK_EQ_U64(cp_man_write(cp_test_open(&t)), CP_EXIT_OK);
    got = cp_test_close(&t);
    CHECK(strncmp(got, ".\\\" coalprobe(1)", 16) == 0);
    CHECK_STR_CONTAINS(got, "\n.TH COALPROBE 1 ");
    CHECK_STR_CONTAINS(got, "\n.SS gemm\n");
    CHECK_STR_CONTAINS(got, "\n.SS trace\n");
    CHECK_STR_CONTAINS(got, "\\fB\\-\\-max\\-sectors\\-per\\-request\\fR \\fIX\\fR\n");
    /* no line starts with a control character by accident: each is a request it meant */
    for (const char *line = got; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "")
        if (*line == '.' || *line == '\'')
            CHECK(strncmp(line, ".\\\"", 3) == 0 || strncmp(line, ".TH ", 4) == 0 ||
                  strncmp(line, ".SH ", 4) == 0 || strncmp(line, ".SS ", 4) == 0 ||
                  strncmp(line, ".TP\n", 4) == 0 || strncmp(line, ".PP\n", 4) == 0 ||
                  strncmp(line, ".B ", 3) == 0 || strncmp(line, ".br\n", 4) == 0 ||
                  strncmp(line, ".I ", 3) == 0 || strncmp(line, ".BR ", 4) == 0);
    free(got);
}

int main(void)
{
    test_wrap();
    test_nearest();
    test_command_table();
    test_help_matches_parsers();
    test_family_options();
    test_pages();
    return cp_test_finish();
}
