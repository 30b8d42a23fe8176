/* cp_status.c: filling in cp_status records. */
#include "cp_status.h"

#include <stdarg.h>
#include <stdio.h>

void cp_status_clear(cp_status *st)
{
    if (!st)
        return;
    st->code = CP_EXIT_OK;
    st->message[0] = '\0';
    st->hint[0] = '\0';
}

/* Records code and the message (fmt with ap) in st (st may be NULL), clearing the hint. */
__attribute__((format(printf, 3, 0))) static void cp_status_vset(cp_status *st, int code,
                                                                 const char *fmt, va_list ap)
{
    if (!st)
        return;
    vsnprintf(st->message, sizeof st->message, fmt, ap);
    st->code = code;
    st->hint[0] = '\0';
}

int cp_status_set(cp_status *st, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cp_status_vset(st, code, fmt, ap);
    va_end(ap);
    return code;
}

void cp_status_hint(cp_status *st, const char *fmt, ...)
{
    if (!st)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->hint, sizeof st->hint, fmt, ap);
    va_end(ap);
}

int cp_status_usage(cp_status *st, const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cp_status_vset(st, CP_EXIT_USAGE, fmt, ap);
    va_end(ap);
    cp_status_hint(st, "%s", hint);
    return CP_EXIT_USAGE;
}
