/* cp_base.h: the base layer's face: status and exit codes, the sweep grammar, the output
 * files every report is written to, whether two paths are one file, the parallel loop the model
 * spreads over the CPUs, the --verbose time breakdown, and a growing string.
 * Depends on nothing else in coalprobe. */
#ifndef CP_BASE_H
#define CP_BASE_H

#include "cp_output.h"
#include "cp_parallel.h"
#include "cp_path.h"
#include "cp_phase.h"
#include "cp_status.h"
#include "cp_strbuf.h"
#include "cp_sweep.h"
#include "cp_text.h"

#endif
