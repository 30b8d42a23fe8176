/* cp_base.h: the base layer's face: status and exit codes, the sweep grammar and the number
 * parsers under it, the output files every report is written to, whether two paths are one file,
 * the reports written beside the main one, a terminal's width and colours,
 * the parallel loop the model spreads over the CPUs, the --verbose time breakdown, a growing
 * string, a string-keyed hash table, loading a shared library on demand, help printed from option
 * tables, and CP_COUNT_OF.
 * Depends on nothing else in coalprobe. */
#ifndef CP_BASE_H
#define CP_BASE_H

#include "cp_dl.h"
#include "cp_exports.h"
#include "cp_help.h"
#include "cp_number.h"
#include "cp_output.h"
#include "cp_parallel.h"
#include "cp_path.h"
#include "cp_phase.h"
#include "cp_status.h"
#include "cp_strbuf.h"
#include "cp_sweep.h"
#include "cp_table.h"
#include "cp_term.h"
#include "cp_text.h"

/* The number of elements of array a (an array, not a pointer). */
#define CP_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#endif
