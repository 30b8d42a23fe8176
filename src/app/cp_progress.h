/* cp_progress.h: the progress line on stderr: shown only when stderr is a terminal and the work
 * has taken more than a moment, with the configuration in hand and an estimate of the time left. */
#ifndef CP_PROGRESS_H
#define CP_PROGRESS_H

#include <stddef.h>

#include "model/cp_model.h"

typedef struct cp_progress {
    int enabled;      /* stderr is a terminal */
    int shown;        /* a line is on the screen */
    double start;     /* seconds, monotonic */
    double last;      /* when the line was last drawn */
    const char *verb; /* "measuring", "predicting" */
} cp_progress;

/* Starts timing a phase; draws nothing yet. */
void cp_progress_start(cp_progress *p, const char *verb);

/* Says that `done` of `total` configurations are finished and c is next: redraws the line at
 * most ten times a second, once the phase has run for half a second. */
void cp_progress_update(cp_progress *p, size_t done, size_t total, const cp_config *c);

/* Erases the line if one is shown. */
void cp_progress_clear(cp_progress *p);

/* Formats the line (without the escape codes) into buf: "[12/32] measuring stride=12 ...,
 * about 3 s left"; used by cp_progress_update and the tests. */
void cp_progress_format(char *buf, size_t len, size_t done, size_t total, const char *verb,
                        const char *what, double elapsed_s);

/* Seconds of predicting from which coalprobe says beforehand what it is about to do. */
#define CP_PROGRESS_NOTICE_SECONDS 3.0

/* The line said on stderr (terminal or not) before a model run estimated to take
 * CP_PROGRESS_NOTICE_SECONDS or more: "the model evaluates 4294967296 GPU threads one by one (1
 * configuration): about 2 min on 16 CPU threads". Returns 1 and fills buf when one is due, 0
 * (buf empty) otherwise. */
int cp_progress_model_notice(char *buf, size_t len, const cp_model_cost *cost);

#endif
