/* cp_text.c: whole files read as text, shell-quoted command lines and CSV fields, shared by every
 * report. */
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
