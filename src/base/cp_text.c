/* cp_text.c: whole files read as text, shell-quoted command lines, CSV fields, wrapped text and
 * text made safe for a terminal, shared by every report. */
#include "cp_text.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

size_t cp_text_read_limit(void)
{
    const char *env = getenv("COALPROBE_MAX_INPUT_BYTES");
    if (env && *env >= '0' && *env <= '9') {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(env, &end, 10);
        if (!*end && errno == 0 && v > 0 && v <= SIZE_MAX / 2)
            return (size_t)v;
    }
    return CP_TEXT_READ_LIMIT;
}

char *cp_text_read_file(const char *path, size_t *len)
{
    size_t limit = cp_text_read_limit();
    struct stat sb; /* a regular file says its size: refused before reading */
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > limit) {
        errno = EFBIG;
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    int too_big = 0;
    while (buf) {
        errno = 0;
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        if (n > limit) { /* a pipe or a device that does not end: stop growing */
            too_big = 1;
            break;
        }
        size_t next = cap * 2 > limit + 2 ? limit + 2 : cap * 2; /* room to see one byte more */
        char *grown = realloc(buf, next);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap = next;
    }
    int e = errno;
    int failed = too_big || !buf || ferror(f) || n > limit;
    fclose(f);
    if (failed) {
        free(buf);
        errno = !buf ? ENOMEM : too_big || n > limit ? EFBIG : e ? e : EIO;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

int cp_text_read_failed(const char *path, int err, cp_status *st)
{
    if (err == EFBIG) {
        cp_status_set(st, CP_EXIT_RUNTIME, "'%s' is larger than the %zu-byte limit for inputs",
                      path, cp_text_read_limit());
        cp_status_hint(st, "check that it is the file you meant; to read a larger one, set "
                           "COALPROBE_MAX_INPUT_BYTES to its size or more");
        return CP_EXIT_RUNTIME;
    }
    return cp_status_set(st, CP_EXIT_RUNTIME, "cannot read '%s': %s", path,
                         err == ENOMEM ? "out of memory" : strerror(err ? err : EIO));
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

void cp_text_csv_cell(cp_text_csv_line *l, const char *text)
{
    if (l->ncells++)
        fputc(',', l->out);
    cp_text_csv_field(l->out, text);
}

void cp_text_csv_end_line(cp_text_csv_line *l)
{
    fputc('\n', l->out);
    l->ncells = 0;
}

/* 1 when position at of text is inside a `quoted command` (an odd number of backticks before). */
static int cp_text_in_quote(const char *text, size_t at)
{
    int inside = 0;
    for (size_t i = 0; i < at; i++)
        inside ^= text[i] == '`';
    return inside;
}

void cp_text_wrap_first(FILE *out, const char *text, size_t width, const char *first,
                        const char *rest)
{
    const char *prefix = first;
    do {
        size_t room = width > strlen(prefix) ? width - strlen(prefix) : 1, len = strlen(text);
        if (width && len > room) {
            size_t cut = room;
            while (cut > 0 && (text[cut] != ' ' || cp_text_in_quote(text, cut)))
                cut--;
            if (cut == 0) /* a quoted command longer than a line: any space will do */
                for (cut = room; cut > 0 && text[cut] != ' ';)
                    cut--;
            len = cut ? cut : room;
        }
        fprintf(out, "%s%.*s\n", prefix, (int)len, text);
        text += len;
        while (*text == ' ')
            text++;
        prefix = rest;
    } while (*text);
}

void cp_text_wrap(FILE *out, const char *text, size_t width, const char *rest)
{
    cp_text_wrap_first(out, text, width, "", rest);
}
