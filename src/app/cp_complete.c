/* cp_complete.c: the bash, zsh and fish completions of coalprobe, written by `coalprobe
 * --completions SHELL` from the help tables (cp_commands.h): the commands and families, each
 * one's options, and the values of --format and of the named parameters. The build runs it. */
#include "cp_complete.h"

#include <string.h>

#include "cp_commands.h"

/* A command word, what it takes after its options, and its options: up to two lists (a family's
 * own, then a sweep's). */
typedef struct cp_complete_cmd {
    const char *name, *summary;
    cp_command_operands operands;
    const cp_help_option *lists[2];
    size_t sizes[2];
} cp_complete_cmd;

typedef struct cp_complete {
    cp_complete_cmd cmds[CP_FAMILY_COUNT + 8]; /* the families, the command table */
    size_t n;
    cp_family_options families[CP_FAMILY_COUNT];
} cp_complete;

/* Every command with its options, from the help tables. */
static void cp_complete_collect(cp_complete *c)
{
    size_t nsweep;
    const cp_help_option *sweep = cp_commands_sweep_options(&nsweep);
    memset(c, 0, sizeof *c);
    for (int f = 0; cp_family_get((cp_family)f); f++) {
        cp_commands_family_options((cp_family)f, &c->families[f]);
        c->cmds[c->n++] = (cp_complete_cmd){cp_family_get((cp_family)f)->name,
                                            cp_family_get((cp_family)f)->summary,
                                            CP_OPERANDS_NONE,
                                            {c->families[f].options, sweep},
                                            {c->families[f].n, nsweep}};
    }
    size_t ncmds;
    const cp_command *cmds = cp_commands_table(&ncmds);
    for (size_t i = 0; i < ncmds && c->n < CP_COUNT_OF(c->cmds); i++) {
        const cp_help_command *h = cmds[i].help ? cmds[i].help() : NULL;
        c->cmds[c->n++] = (cp_complete_cmd){cmds[i].name,
                                            cp_commands_summary(&cmds[i]),
                                            cmds[i].operands,
                                            {h ? h->options : NULL, NULL},
                                            {h ? h->noptions : 0, 0}};
    }
}

/* The first clause of text (up to ". ", "; ", ": " or a long enough " ("), at most 70
 * characters, into buf. */
static void cp_complete_describe(const char *text, char *buf, size_t len)
{
    size_t n = strlen(text);
    const char *stops[] = {". ", "; ", ": ", " (", ", K/M/G"};
    for (size_t i = 0; i < CP_COUNT_OF(stops); i++) {
        const char *at = strstr(text, stops[i]);
        if (at && (size_t)(at - text) < n && at - text >= (i == 3 ? 20 : 1))
            n = (size_t)(at - text);
    }
    if (n > 70) { /* at a word */
        n = 70;
        while (n > 20 && text[n] != ' ')
            n--;
    }
    snprintf(buf, len, "%.*s", (int)n, text);
}

/* s inside a single-quoted string of the shell: fish escapes ' and \ with a backslash; zsh
 * (an _arguments spec) closes the quote for ', and escapes the [ ] : its spec reads. */
static void cp_complete_quoted(FILE *out, const char *s, int zsh)
{
    for (; *s; s++) {
        if (*s == '\'' && zsh)
            fputs("'\\''", out);
        else if (*s == '\'' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if (zsh && strchr("[]:", *s))
            fprintf(out, "\\%c", *s);
        else
            fputc(*s, out);
    }
}

/* --- bash ------------------------------------------------------------------------------------- */

/* The case of _coalprobe_values for one option with a value of command `cmd`. */
static void cp_complete_bash_value(FILE *out, const char *cmd, const cp_help_option *o)
{
    fprintf(out, "    \"%s --%s\"", cmd, o->name);
    if (o->short_name)
        fprintf(out, " | \"%s -%c\"", cmd, o->short_name);
    switch (o->complete) {
    case CP_HELP_VALUES:
        fprintf(out, ") COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")) ;;\n", o->values);
        break;
    case CP_HELP_FILE:
        fputs(") compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n",
              out);
        break;
    case CP_HELP_DIR:
        fputs(") compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\")) ;;\n",
              out);
        break;
    default:
        fputs(") ;;\n", out); /* a number, a name: nothing to offer */
    }
}

static void cp_complete_bash(FILE *out, const cp_complete *c)
{
    fputs(
        "# bash completion of coalprobe, written by `coalprobe --completions bash` from its help\n"
        "# tables: do not edit.\n\n"
        "# the values of the option $2 of command $1 into COMPREPLY; 1 when $2 takes none\n"
        "_coalprobe_values() {\n  case \"$1 $2\" in\n",
        out);
    for (size_t i = 0; i < c->n; i++)
        for (size_t l = 0; l < 2; l++)
            for (size_t k = 0; k < c->cmds[i].sizes[l]; k++)
                if (c->cmds[i].lists[l][k].arg)
                    cp_complete_bash_value(out, c->cmds[i].name, &c->cmds[i].lists[l][k]);
    fputs("    *) return 1 ;;\n  esac\n}\n\n_coalprobe() {\n"
          "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd i opts\n"
          "  local commands=\"",
          out);
    for (size_t i = 0; i < c->n; i++)
        fprintf(out, "%s%s", i ? " " : "", c->cmds[i].name);
    fprintf(out,
            "\"\n  COMPREPLY=()\n"
            "  if [[ $COMP_CWORD -eq 1 && $cur != -* ]]; then\n"
            "    COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))\n    return\n  fi\n"
            "  cmd=%s\n  [[ ${COMP_WORDS[1]} != -* ]] && cmd=${COMP_WORDS[1]}\n"
            "  if [[ $cmd == help ]]; then\n"
            "    [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W \"$commands\" -- "
            "\"$cur\"))\n    return\n  fi\n"
            "  if [[ $cmd == trace ]]; then # after --: the program and its arguments\n"
            "    for ((i = 2; i < COMP_CWORD; i++)); do\n"
            "      if [[ ${COMP_WORDS[i]} == -- ]]; then\n"
            "        if ((i == COMP_CWORD - 1)); then COMPREPLY=($(compgen -c -- \"$cur\"));\n"
            "        else compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "
            "\"$cur\")); fi\n        return\n      fi\n    done\n  fi\n"
            "  _coalprobe_values \"$cmd\" \"$prev\" && return\n  case $cmd in\n",
            c->cmds[0].name);
    for (size_t i = 0; i < c->n; i++) {
        if (c->cmds[i].operands == CP_OPERANDS_COMMAND)
            continue;
        fprintf(out, "    %s) opts=\"", c->cmds[i].name);
        const char *sep = "";
        for (size_t l = 0; l < 2; l++)
            for (size_t k = 0; k < c->cmds[i].sizes[l]; k++, sep = " ") {
                const cp_help_option *o = &c->cmds[i].lists[l][k];
                fprintf(out, "%s--%s", sep, o->name);
                if (o->short_name)
                    fprintf(out, " -%c", o->short_name);
            }
        fputs("\" ;;\n", out);
    }
    fputs("    *) return ;;\n  esac\n"
          "  if [[ $cur == -* ]]; then\n    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
          "  elif [[ $cmd == compare ]]; then\n"
          "    compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "  elif [[ $cmd == trace ]]; then\n    COMPREPLY=($(compgen -c -- \"$cur\"))\n  fi\n}\n"
          "complete -F _coalprobe coalprobe\n",
          out);
}

/* --- zsh -------------------------------------------------------------------------------------- */

/* One option as _arguments reads it: '(-o --output)'{-o+,--output=}'[what]:FILE:_files'. */
static void cp_complete_zsh_option(FILE *out, const cp_help_option *o)
{
    char what[80];
    cp_complete_describe(o->text, what, sizeof what);
    const char *value = o->arg ? (o->short_name ? "+" : "=") : "";
    if (o->short_name)
        fprintf(out, "    '(-%c --%s)'{-%c%s,--%s%s}'[", o->short_name, o->name, o->short_name,
                value, o->name, o->arg ? "=" : "");
    else
        fprintf(out, "    '--%s%s[", o->name, value);
    cp_complete_quoted(out, what, 1);
    fputc(']', out);
    if (o->arg) {
        fprintf(out, ":%s:", o->arg);
        if (o->complete == CP_HELP_VALUES)
            fprintf(out, "(%s)", o->values);
        else if (o->complete == CP_HELP_FILE)
            fputs("_files", out);
        else if (o->complete == CP_HELP_DIR)
            fputs("_files -/", out);
        else
            fputs(" ", out);
    }
    fputs("' \\\n", out);
}

static void cp_complete_zsh(FILE *out, const cp_complete *c)
{
    fputs("#compdef coalprobe\n# zsh completion of coalprobe, written by `coalprobe --completions "
          "zsh` from its\n# help tables: do not edit.\n\n",
          out);
    for (size_t i = 0; i < c->n; i++) {
        const cp_complete_cmd *cmd = &c->cmds[i];
        fprintf(out, "_coalprobe_%s() {\n  _arguments -s -S \\\n", cmd->name);
        for (size_t l = 0; l < 2; l++)
            for (size_t k = 0; k < cmd->sizes[l]; k++)
                cp_complete_zsh_option(out, &cmd->lists[l][k]);
        if (cmd->operands == CP_OPERANDS_PROGRAM)
            fputs("    '(-):program:_command_names -e' '*::arguments:_normal'\n", out);
        else if (cmd->operands == CP_OPERANDS_TWO_REPORTS)
            fputs("    '1:base report:_files -g \"*.json\"' '2:new report:_files -g \"*.json\"'\n",
                  out);
        else if (cmd->operands == CP_OPERANDS_REPORT)
            fputs("    '1:report:_files -g \"*.json\"'\n", out);
        else if (cmd->operands == CP_OPERANDS_COMMAND)
            fputs("    '1:command:_coalprobe_commands'\n", out);
        else
            fputs("    && return 0\n", out);
        fputs("}\n\n", out);
    }
    fputs("_coalprobe_commands() {\n  local -a commands\n  commands=(\n", out);
    for (size_t i = 0; i < c->n; i++) {
        char what[80];
        cp_complete_describe(c->cmds[i].summary, what, sizeof what);
        fprintf(out, "    '%s:", c->cmds[i].name);
        cp_complete_quoted(out, what, 1);
        fputs("'\n", out);
    }
    fprintf(out,
            "  )\n  _describe -t commands 'coalprobe command' commands\n}\n\n"
            "_coalprobe() {\n"
            "  if ((CURRENT == 2)) && [[ $words[2] != -* ]]; then\n"
            "    _coalprobe_commands\n    return\n  fi\n"
            "  local cmd=%s\n"
            "  if [[ $words[2] != -* ]]; then\n"
            "    cmd=$words[2]\n    shift words\n    ((CURRENT--))\n  fi\n"
            "  (($+functions[_coalprobe_$cmd])) && _coalprobe_$cmd\n}\n\n"
            "if [[ $funcstack[1] == _coalprobe ]]; then\n  _coalprobe \"$@\"\nelse\n"
            "  compdef _coalprobe coalprobe\nfi\n",
            c->cmds[0].name);
}

/* --- fish ------------------------------------------------------------------------------------- */

static void cp_complete_fish_option(FILE *out, const char *cmd, const cp_help_option *o)
{
    char what[80];
    cp_complete_describe(o->text, what, sizeof what);
    fprintf(out, "complete -c coalprobe -n '__coalprobe_is %s' -l %s", cmd, o->name);
    if (o->short_name)
        fprintf(out, " -s %c", o->short_name);
    if (o->arg) {
        if (o->complete == CP_HELP_VALUES)
            fprintf(out, " -x -a '%s'", o->values);
        else if (o->complete == CP_HELP_FILE)
            fputs(" -r -F", out);
        else if (o->complete == CP_HELP_DIR)
            fputs(" -x -a '(__fish_complete_directories)'", out);
        else
            fputs(" -x", out);
    }
    fputs(" -d '", out);
    cp_complete_quoted(out, what, 0);
    fputs("'\n", out);
}

static void cp_complete_fish(FILE *out, const cp_complete *c)
{
    fprintf(out,
            "# fish completion of coalprobe, written by `coalprobe --completions fish` from its "
            "help\n# tables: do not edit.\n\n"
            "# the command of the command line: its second word, or %s\n"
            "function __coalprobe_command\n"
            "    set -l words (commandline -opc)\n"
            "    if test (count $words) -ge 2; and not string match -q -- '-*' $words[2]\n"
            "        echo $words[2]\n    else\n        echo %s\n    end\nend\n\n"
            "# true when the command is one of the arguments\n"
            "function __coalprobe_is\n    contains -- (__coalprobe_command) $argv\nend\n\n"
            "function __coalprobe_first_word\n"
            "    test (count (commandline -opc)) -eq 1\nend\n\n"
            "complete -c coalprobe -f\n",
            c->cmds[0].name, c->cmds[0].name);
    for (size_t i = 0; i < c->n; i++) {
        char what[80];
        cp_complete_describe(c->cmds[i].summary, what, sizeof what);
        fprintf(out, "complete -c coalprobe -n __coalprobe_first_word -a %s -d '", c->cmds[i].name);
        cp_complete_quoted(out, what, 0);
        fputs("'\n", out);
    }
    for (size_t i = 0; i < c->n; i++)
        for (size_t l = 0; l < 2; l++)
            for (size_t k = 0; k < c->cmds[i].sizes[l]; k++)
                cp_complete_fish_option(out, c->cmds[i].name, &c->cmds[i].lists[l][k]);
    fputs("complete -c coalprobe -n '__coalprobe_is compare' -F\n"
          "complete -c coalprobe -n '__coalprobe_is trace' -a '(__fish_complete_command)'\n"
          "complete -c coalprobe -n '__coalprobe_is help; and test (count (commandline -opc)) -eq "
          "2' -a '",
          out);
    for (size_t i = 0; i < c->n; i++)
        fprintf(out, "%s%s", i ? " " : "", c->cmds[i].name);
    fputs("'\n", out);
}

int cp_complete_write(FILE *out, const char *shell)
{
    static cp_complete c; /* the families' option tables are large */
    cp_complete_collect(&c);
    if (strcmp(shell, "bash") == 0)
        cp_complete_bash(out, &c);
    else if (strcmp(shell, "zsh") == 0)
        cp_complete_zsh(out, &c);
    else if (strcmp(shell, "fish") == 0)
        cp_complete_fish(out, &c);
    else {
        fprintf(stderr, "coalprobe: --completions: '%s' is not bash, zsh or fish\n", shell);
        return CP_EXIT_USAGE;
    }
    return ferror(out) ? CP_EXIT_RUNTIME : CP_EXIT_OK;
}
