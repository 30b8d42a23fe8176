/* cp_output.h: the report's destination: standard output, or a file written under a
 * temporary name and renamed into place only when the report is complete. */
#ifndef CP_OUTPUT_H
#define CP_OUTPUT_H

#include <stdio.h>

#include "cp_status.h"

typedef struct cp_output {
    FILE *file;      /* where to write */
    char *path;      /* final path, NULL for standard output */
    char *temp_path; /* temporary file beside it, NULL for standard output */
} cp_output;

/* Opens the destination: NULL or "-" is standard output; otherwise creates a temporary file
 * in the target's directory (so that a path that cannot be written fails now, before any
 * work). */
int cp_output_open(cp_output *out, const char *path, cp_status *st);

/* Flushes and, for a file, renames the temporary file onto the final path. */
int cp_output_commit(cp_output *out, cp_status *st);

/* Closes and removes the temporary file (nothing is left behind); safe after commit. */
void cp_output_abort(cp_output *out);

#endif
