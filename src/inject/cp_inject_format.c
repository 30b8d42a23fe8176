/* cp_inject_format.c: numbers of the raw files in the C locale (a decimal point, never a comma),
 * through a C locale object used by this thread only while it formats (uselocale). */
#define _GNU_SOURCE
#include "cp_inject_format.h"

#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t cp_inject_format_once = PTHREAD_ONCE_INIT;
static locale_t cp_inject_format_c; /* the C locale, or (locale_t)0 when it could not be made */

static void cp_inject_format_init(void)
{
    cp_inject_format_c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

int cp_inject_format_double(char *buf, size_t n, double v, int decimals)
{
    pthread_once(&cp_inject_format_once, cp_inject_format_init);
    locale_t old = cp_inject_format_c ? uselocale(cp_inject_format_c) : (locale_t)0;
    int w = decimals >= 0 ? snprintf(buf, n, "%.*f", decimals, v) : snprintf(buf, n, "%.17g", v);
    if (old) {
        uselocale(old);
    } else if (n > 0) {
        /* no C locale object (out of memory): the current locale's decimal point, replaced */
        const char *point = localeconv()->decimal_point;
        size_t plen = point ? strlen(point) : 0;
        char *at = plen && strcmp(point, ".") != 0 ? strstr(buf, point) : NULL;
        if (at) {
            *at = '.';
            memmove(at + 1, at + plen, strlen(at + plen) + 1);
            w -= (int)(plen - 1);
        }
    }
    return w;
}

void cp_inject_format_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        const char *escaped = *s == '\\'   ? "\\\\"
                              : *s == '\t' ? "\\t"
                              : *s == '\n' ? "\\n"
                              : *s == '\r' ? "\\r"
                                           : NULL;
        if (escaped)
            fputs(escaped, f);
        else
            fputc(*s, f);
    }
}
