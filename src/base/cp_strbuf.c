/* cp_strbuf.c: a growing string that records its first failed allocation, and the shortest
 * digits of a number. */
#include "cp_strbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_text.h"

#define CP_STRBUF_FIRST 128
/* integers below 2^53 are exact in a double and print as digits */
#define CP_STRBUF_EXACT_INT 9007199254740992.0

/* Room for n more bytes and a NUL; 0 (and b->failed) when memory runs out. */
static int cp_strbuf_reserve(cp_strbuf *b, size_t n)
{
    if (b->failed)
        return 0;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : CP_STRBUF_FIRST;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown) {
            b->failed = 1;
            return 0;
        }
        b->data = grown;
        b->cap = cap;
    }
    return 1;
}

void cp_strbuf_add(cp_strbuf *b, const char *s, size_t n)
{
    if (!cp_strbuf_reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void cp_strbuf_str(cp_strbuf *b, const char *s)
{
    cp_strbuf_add(b, s, strlen(s));
}

void cp_strbuf_vprintf(cp_strbuf *b, const char *fmt, va_list ap)
{
    char small[128];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        b->failed = 1;
    } else if ((size_t)n < sizeof small) {
        cp_strbuf_add(b, small, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);
        if (big) {
            vsnprintf(big, (size_t)n + 1, fmt, again);
            cp_strbuf_add(b, big, (size_t)n);
            free(big);
        } else {
            b->failed = 1;
        }
    }
    va_end(again);
}

void cp_strbuf_printf(cp_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cp_strbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

void cp_strbuf_printable(cp_strbuf *b, const char *s)
{
    size_t n = cp_text_printable(NULL, 0, s);
    if (!cp_strbuf_reserve(b, n))
        return;
    cp_text_printable(b->data + b->len, n + 1, s);
    b->len += n;
}

void cp_strbuf_format_number(char *out, size_t size, double v)
{
    if (v == floor(v) && fabs(v) < CP_STRBUF_EXACT_INT) {
        snprintf(out, size, "%.0f", v == 0 ? 0.0 : v);
        return;
    }
    snprintf(out, size, "%.15g", v);
    if (strtod(out, NULL) != v)
        snprintf(out, size, "%.17g", v);
}

void cp_strbuf_number(cp_strbuf *b, double v)
{
    char text[40];
    cp_strbuf_format_number(text, sizeof text, v);
    cp_strbuf_str(b, text);
}

void cp_strbuf_reset(cp_strbuf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

const char *cp_strbuf_text(const cp_strbuf *b, const char *fallback)
{
    if (b->failed)
        return fallback;
    return b->data ? b->data : "";
}

char *cp_strbuf_steal(cp_strbuf *b)
{
    cp_strbuf_add(b, "", 0);
    char *text = b->failed ? NULL : b->data;
    if (!text)
        free(b->data);
    *b = (cp_strbuf){0};
    return text;
}

void cp_strbuf_free(cp_strbuf *b)
{
    free(b->data);
    *b = (cp_strbuf){0};
}
