/* cp_complete.h: what the build writes from the help tables (cp_commands.h) by running coalprobe:
 * the man page (cp_man.c) and the bash, zsh and fish completions (cp_complete.c), so that both
 * name exactly the commands, families, options and values the parsers take. */
#ifndef CP_COMPLETE_H
#define CP_COMPLETE_H

#include <stdio.h>

/* coalprobe --help-man: coalprobe(1) in roff, every command in one page. Returns CP_EXIT_OK, or
 * CP_EXIT_RUNTIME when writing failed. */
int cp_man_write(FILE *out);

/* coalprobe --completions SHELL: the completion script of bash, zsh or fish (commands,
 * families, each one's options, the values of --format and of the named parameters). Returns
 * CP_EXIT_OK, CP_EXIT_USAGE for another shell (said on stderr), CP_EXIT_RUNTIME when writing
 * failed. */
int cp_complete_write(FILE *out, const char *shell);

#endif
