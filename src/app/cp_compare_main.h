/* cp_compare_main.h: `coalprobe compare BASE NEW`: what changed between two JSON reports (two
 * sweeps' or two traces'), as a table, JSON or a page. */
#ifndef CP_COMPARE_MAIN_H
#define CP_COMPARE_MAIN_H

/* Runs `coalprobe compare BASE.json NEW.json [--tolerance T] [--format FMT] [-o FILE]` (argv[1]
 * is "compare"). Returns the exit status: 0 nothing regressed, 1 a report that cannot be read or
 * written, 2 a usage error, 3 something regressed (said on stderr). */
int cp_compare_main(int argc, char **argv);

#endif
