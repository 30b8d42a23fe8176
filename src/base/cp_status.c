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

int cp_status_set(cp_status *st, int code, const char *fmt, ...)
{
    if (st) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(st->message, sizeof st->message, fmt, ap);
        va_end(ap);
        st->code = code;
        st->hint[0] = '\0';
    }
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
    if (st) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(st->message, sizeof st->message, fmt, ap);
        va_end(ap);
        st->code = CP_EXIT_USAGE;
        cp_status_hint(st, "%s", hint);
    }
    return CP_EXIT_USAGE;
}
