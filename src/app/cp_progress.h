/* cp_progress.h: progress and notes on stderr, off with --quiet. On a terminal, one line
 * redrawn in place once the work has taken more than a moment, with the configuration in hand
 * and an estimate of the time left; elsewhere (a log, a pipe) a plain line every
 * CP_PROGRESS_INTERVAL seconds: "coalprobe: predicting configuration 412/1024, 3 m 10 s left".
 * Notes are wrapped at stderr's width, as the table is. */
#ifndef CP_PROGRESS_H
#define CP_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

#include "model/cp_model.h"

/* Seconds between the plain lines; COALPROBE_PROGRESS_INTERVAL (seconds, 0 and fractions
 * allowed) sets another. */
#define CP_PROGRESS_INTERVAL 10.0

typedef struct cp_progress {
    int enabled;         /* stderr is a terminal: the line redrawn in place */
    int plain;           /* stderr is not one: a plain line every `interval` seconds */
    int shown;           /* a terminal line is on the screen */
    double start;        /* seconds, monotonic */
    double last;         /* when a line was last written */
    double interval;     /* seconds between plain lines */
    const char *verb;    /* "measuring", "predicting" */
    FILE *out;           /* stderr */
    double (*now)(void); /* the clock: cp_phase_now */
} cp_progress;

/* Starts timing a phase; writes nothing yet. quiet: never write anything. */
void cp_progress_start(cp_progress *p, const char *verb, int quiet);

/* cp_progress_start with everything given (the tests): the line's stream, whether it is a
 * terminal, the plain lines' interval and the clock. */
void cp_progress_start_on(cp_progress *p, const char *verb, FILE *out, int terminal,
                          double interval, double (*now)(void));

/* Says that `done` of `total` configurations are finished and c is next: on a terminal redraws
 * the line at most ten times a second, once the phase has run for half a second; elsewhere
 * writes a plain line once `interval` seconds passed since the last one (or the start). */
void cp_progress_update(cp_progress *p, size_t done, size_t total, const cp_config *c);

/* Erases the terminal's line if one is shown. */
void cp_progress_clear(cp_progress *p);

/* Formats the line (without the escape codes) into buf: "[12/32] measuring stride=12 ...,
 * about 3 s left"; used by cp_progress_update and the tests. */
void cp_progress_format(char *buf, size_t len, size_t done, size_t total, const char *verb,
                        const char *what, double elapsed_s);

/* Formats the plain line into buf: "coalprobe: predicting configuration 412/1024, 3 m 10 s
 * left" (no estimate before one configuration is done). */
void cp_progress_format_plain(char *buf, size_t len, size_t done, size_t total, const char *verb,
                              double elapsed_s);

/* Seconds of predicting from which coalprobe says beforehand what it is about to do. */
#define CP_PROGRESS_NOTICE_SECONDS 3.0

/* The line said on stderr (terminal or not) before a model run estimated to take
 * CP_PROGRESS_NOTICE_SECONDS or more: "the model evaluates 4294967296 GPU threads one by one (1
 * configuration): about 2 min on 16 CPU threads". Returns 1 and fills buf when one is due, 0
 * (buf empty) otherwise. */
int cp_progress_model_notice(char *buf, size_t len, const cp_model_cost *cost);

/* A note on stderr ("coalprobe: note: ...", the cause of no GPU and its hint: what a run says
 * beside its report; never an error or a warning): nothing under --quiet (quiet); otherwise
 * each line of the formatted text wrapped at stderr's width as the table is (cp_term_width:
 * COLUMNS, else the terminal's, else 100 columns), at spaces, every line after the first
 * indented by two spaces. */
void cp_progress_note(FILE *out, int quiet, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
