/* cp_doctor.h: `coalprobe doctor`: what will work on this machine and how to fix what will not;
 * and the --version line, which names what this build carries. */
#ifndef CP_DOCTOR_H
#define CP_DOCTOR_H

#include <getopt.h>
#include <stdio.h>

/* Runs `coalprobe doctor [--format text|json] [--chip CHIP]` (argv[1] is "doctor"). Returns the
 * exit status: 0 when everything measuring needs is usable, 1 when something is missing, 2 for a
 * usage error (printed on stderr). */
int cp_doctor_main(int argc, char **argv);

/* The getopt_long table of doctor (ended by a NULL name), for the check that its help
 * (cp_commands.c) names every option it parses. */
const struct option *cp_doctor_option_table(void);

/* "coalprobe 0.2.0 (CUDA runtime 13.0, CUPTI API 130001, kernels for sm_75 ... sm_120, PTX
 * compute_120)" and a newline. */
void cp_doctor_print_version(FILE *out);

#endif
