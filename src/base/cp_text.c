/* cp_text.c: whole files read as text, shell-quoted command lines, CSV fields and text made safe
 * for a terminal, shared by every report. */
#include "cp_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char *cp_text_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        errno = 0;
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int e = errno;
    int failed = !buf || ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        errno = !buf ? ENOMEM : e ? e : EIO;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* 1 when a shell would not read s back as it is without quotes. */
static int cp_text_needs_quotes(const char *s)
{
    if (!*s)
        return 1;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:%+@^",
                    *s))
            return 1;
    return 0;
}

char *cp_text_shell_join(int n, char *const *words, const char *first)
{
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(i == 0 && first ? first : words[i]) * 4 + 3;
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    *p = '\0';
    for (int i = 0; i < n; i++) {
        const char *a = i == 0 && first ? first : words[i];
        if (i)
            *p++ = ' ';
        if (!cp_text_needs_quotes(a)) {
            size_t l = strlen(a);
            memcpy(p, a, l);
            p += l;
            continue;
        }
        *p++ = '\'';
        for (; *a; a++) {
            if (*a == '\'') {
                memcpy(p, "'\\''", 4);
                p += 4;
            } else {
                *p++ = *a;
            }
        }
        *p++ = '\'';
    }
    *p = '\0';
    return s;
}

void cp_text_csv_field(FILE *out, const char *text)
{
    if (!text)
        return;
    if (!strpbrk(text, ",\"\r\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *s = text; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* The escape for the character at s (its length in *used), or NULL when it passes as it is. */
static const char *cp_text_escape_at(const char *s, size_t *used, char buf[8])
{
    unsigned char c = (unsigned char)s[0];
    *used = 1;
    switch (c) {
    case '\n':
        return "\\n";
    case '\r':
        return "\\r";
    case '\t':
        return "\\t";
    case 0x1b:
        return "\\e";
    default:
        break;
    }
    if (c < 0x20 || c == 0x7f) {
        snprintf(buf, 8, "\\x%02x", c);
        return buf;
    }
    unsigned char next = (unsigned char)s[1];
    if (c == 0xc2 && next >= 0x80 && next <= 0x9f) { /* a C1 control in UTF-8 */
        *used = 2;
        snprintf(buf, 8, "\\u%04x", next);
        return buf;
    }
    return NULL;
}

int cp_text_has_control(const char *text)
{
    char buf[8];
    size_t used;
    for (const char *s = text ? text : ""; *s; s += used)
        if (cp_text_escape_at(s, &used, buf))
            return 1;
    return 0;
}

void cp_text_put_printable(FILE *out, const char *text)
{
    char buf[8];
    size_t used;
    for (const char *s = text ? text : ""; *s; s += used) {
        const char *esc = cp_text_escape_at(s, &used, buf);
        if (esc)
            fputs(esc, out);
        else
            fputc(*s, out);
    }
}

size_t cp_text_printable(char *dst, size_t size, const char *text)
{
    char buf[8];
    size_t used, need = 0;
    for (const char *s = text ? text : ""; *s; s += used) {
        const char *esc = cp_text_escape_at(s, &used, buf);
        size_t len = esc ? strlen(esc) : 1;
        if (size > 0 && need + len < size)
            memcpy(dst + need, esc ? esc : s, len);
        else if (size > 0 && need < size)
            size = need + 1; /* full: nothing more is copied, nothing cut in half */
        need += len;
    }
    if (size > 0)
        dst[need < size ? need : size - 1] = '\0';
    return need;
}
