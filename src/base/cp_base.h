/* cp_base.h: the base layer's face: status and exit codes, the sweep grammar, and the output
 * files every report is written to. Depends on nothing else in coalprobe. */
#ifndef CP_BASE_H
#define CP_BASE_H

#include "cp_output.h"
#include "cp_status.h"
#include "cp_sweep.h"

#endif
