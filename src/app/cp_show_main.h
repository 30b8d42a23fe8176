/* cp_show_main.h: `coalprobe show REPORT`: a saved JSON report (a sweep, a trace, or a comparison
 * of either) written again as a table, CSV, Vega-Lite or JSON. */
#ifndef CP_SHOW_MAIN_H
#define CP_SHOW_MAIN_H

#include <stdio.h>

/* Runs `coalprobe show REPORT [--format FMT] [-o FILE] [--top N] [--sort KEY] [--wide]
 * [--color WHEN]` (argv[1] is "show"). Returns the exit status: 0 written, 1 a file that cannot
 * be read or written, 2 a usage error or a file that is not a coalprobe report (said on stderr
 * with the reason). */
int cp_show_main(int argc, char **argv);

#endif
