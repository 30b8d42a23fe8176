/* cp_progress.c: progress on stderr, with an estimate of the time left: a line redrawn on a
 * terminal, a plain line every few seconds elsewhere. */
#define _POSIX_C_SOURCE 200809L
#include "cp_progress.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cp_base.h"

#define CP_PROGRESS_WIDTH 79 /* the line never wraps on an 80-column terminal */

/* The plain lines' interval: COALPROBE_PROGRESS_INTERVAL when it is a number of seconds. */
static double cp_progress_interval(void)
{
    const char *env = getenv("COALPROBE_PROGRESS_INTERVAL");
    double v = NAN;
    return env && cp_number_seconds(env, &v) == CP_NUMBER_OK && v < 1e9 ? v : CP_PROGRESS_INTERVAL;
}

void cp_progress_start_on(cp_progress *p, const char *verb, FILE *out, int terminal,
                          double interval, double (*now)(void))
{
    memset(p, 0, sizeof *p);
    p->enabled = terminal;
    p->plain = !terminal;
    p->out = out;
    p->now = now;
    p->interval = interval;
    p->start = p->last = now();
    p->verb = verb;
}

void cp_progress_start(cp_progress *p, const char *verb, int quiet)
{
    cp_progress_start_on(p, verb, stderr, isatty(STDERR_FILENO), cp_progress_interval(),
                         cp_phase_now);
    if (quiet)
        p->enabled = p->plain = 0;
}

/* "less than 1 s", "45 s", "3 m 10 s", "2 h 5 m". */
static void cp_progress_duration(char *buf, size_t len, double s)
{
    unsigned long t = (unsigned long)(s + 0.5);
    if (t == 0)
        snprintf(buf, len, "less than 1 s");
    else if (t < 60)
        snprintf(buf, len, "%lu s", t);
    else if (t < 3600)
        snprintf(buf, len, "%lu m %lu s", t / 60, t % 60);
    else
        snprintf(buf, len, "%lu h %lu m", t / 3600, t / 60 % 60);
}

void cp_progress_format_plain(char *buf, size_t len, size_t done, size_t total, const char *verb,
                              double elapsed_s)
{
    char left[48] = "";
    if (done > 0 && done < total) {
        cp_progress_duration(left, sizeof left - 8,
                             elapsed_s / (double)done * (double)(total - done));
        strcat(left, " left");
    }
    snprintf(buf, len, "coalprobe: %s configuration %zu/%zu%s%s", verb,
             done < total ? done + 1 : total, total, left[0] ? ", " : "", left);
}

void cp_progress_format(char *buf, size_t len, size_t done, size_t total, const char *verb,
                        const char *what, double elapsed_s)
{
    char eta[48] = "";
    if (done > 0 && done < total) {
        double left = elapsed_s / (double)done * (double)(total - done);
        if (left < 90)
            snprintf(eta, sizeof eta, ", about %.0f s left", left);
        else
            snprintf(eta, sizeof eta, ", about %.0f min left", left / 60);
    }
    char head[64];
    snprintf(head, sizeof head, "[%zu/%zu] %s ", done < total ? done + 1 : total, total, verb);
    size_t room = len < CP_PROGRESS_WIDTH + 1 ? len : CP_PROGRESS_WIDTH + 1;
    size_t fixed = strlen(head) + strlen(eta);
    int what_len = fixed + 1 < room ? (int)(room - 1 - fixed) : 0;
    int n = snprintf(buf, room, "%s%.*s%s", head, what_len, what, eta);
    if (n < 0 || (size_t)n >= room) /* cut at the width: the estimate may be lost, never wraps */
        buf[room - 1] = '\0';
}

void cp_progress_update(cp_progress *p, size_t done, size_t total, const cp_config *c)
{
    if (!p->enabled && !p->plain)
        return;
    double now = p->now();
    if (p->plain) {
        if (now - p->last < p->interval)
            return;
        char line[160];
        cp_progress_format_plain(line, sizeof line, done, total, p->verb, now - p->start);
        fprintf(p->out, "%s\n", line);
        fflush(p->out);
        p->last = now;
        return;
    }
    if (now - p->start < 0.5 || (p->shown && now - p->last < 0.1))
        return;
    char what[160], line[CP_PROGRESS_WIDTH + 1];
    cp_config_describe(c, what, sizeof what);
    cp_progress_format(line, sizeof line, done, total, p->verb, what, now - p->start);
    fprintf(p->out, "\r\033[K%s", line);
    fflush(p->out);
    p->shown = 1;
    p->last = now;
}

void cp_progress_clear(cp_progress *p)
{
    if (p->shown) {
        fprintf(p->out, "\r\033[K");
        fflush(p->out);
    }
    p->shown = 0;
}

int cp_progress_model_notice(char *buf, size_t len, const cp_model_cost *cost)
{
    if (len)
        buf[0] = '\0';
    if (!(cost->seconds >= CP_PROGRESS_NOTICE_SECONDS))
        return 0;
    char when[32];
    if (cost->seconds < 90)
        snprintf(when, sizeof when, "%.0f s", cost->seconds);
    else if (cost->seconds < 90 * 60)
        snprintf(when, sizeof when, "%.0f min", cost->seconds / 60);
    else
        snprintf(when, sizeof when, "%.1f h", cost->seconds / 3600);
    snprintf(buf, len,
             "the model evaluates %" PRIu64 " GPU threads one by one (%zu configuration%s): "
             "about %s on %u CPU thread%s",
             cost->threads, cost->configs, cost->configs == 1 ? "" : "s", when, cost->cpu_threads,
             cost->cpu_threads == 1 ? "" : "s");
    return 1;
}

void cp_progress_note(FILE *out, int quiet, const char *fmt, ...)
{
    if (quiet)
        return;
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    size_t width = cp_term_width(out == stderr ? STDERR_FILENO : fileno(out));
    for (char *line = text; *line;) { /* one wrapped paragraph per line of the text */
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        if (*line)
            cp_text_wrap(out, line, width, "  ");
        if (!end)
            break;
        line = end + 1;
    }
}
