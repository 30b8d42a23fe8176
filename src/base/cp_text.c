/* cp_text.c: whole files read as text, shell-quoted command lines, CSV fields, wrapped text and
 * text made safe for a terminal, shared by every report. */
#define _POSIX_C_SOURCE 200809L
#include "cp_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

size_t cp_text_read_limit_or(size_t fallback)
{
    const char *env = getenv("COALPROBE_MAX_INPUT_BYTES");
    if (env && *env >= '0' && *env <= '9') {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(env, &end, 10);
        if (!*end && errno == 0 && v > 0 && v <= SIZE_MAX / 2)
            return (size_t)v;
    }
    return fallback;
}

size_t cp_text_read_limit(void)
{
    return cp_text_read_limit_or(CP_TEXT_READ_LIMIT);
}

/* Standard input, read once: "-" named again (compare looks at a report before it reads it) is
 * the same text. */
static struct {
    int read, err;
    char *text;
    size_t len;
} cp_text_stdin;

/* Opens path without blocking on a FIFO and without reading a device: the descriptor of a
 * regular file (blocking again), or -1 with errno (EISDIR for a directory, ESPIPE for anything
 * else that is not a regular file). */
static int cp_text_open_regular(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct stat sb;
    int flags = fcntl(fd, F_GETFL);
    if (fstat(fd, &sb) != 0 || flags < 0 || !S_ISREG(sb.st_mode) ||
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = fstat(fd, &sb) != 0    ? errno
                : S_ISDIR(sb.st_mode)  ? EISDIR
                : !S_ISREG(sb.st_mode) ? ESPIPE
                                       : errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* Reads fd to its end or to the limit (EFBIG), watch seeing each chunk (ECANCELED when it
 * stops the reading). */
static char *cp_text_read_fd(int fd, size_t *len, size_t limit, cp_text_watch watch, void *ctx)
{
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    int err = 0;
    while (buf && !err) {
        if (n + 1 == cap) {
            if (n > limit) { /* a pipe or a device that does not end: stop growing */
                err = EFBIG;
                break;
            }
            size_t next = cap * 2 > limit + 2 ? limit + 2 : cap * 2; /* room for one byte more */
            char *grown = realloc(buf, next);
            if (!grown) {
                err = ENOMEM;
                break;
            }
            buf = grown;
            cap = next;
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            err = errno ? errno : EIO;
        if (got <= 0)
            break;
        if (watch && watch(ctx, buf, n, n + (size_t)got) != 0)
            err = ECANCELED;
        n += (size_t)got;
        if (n > limit)
            err = EFBIG;
    }
    if (!buf || err) {
        free(buf);
        errno = !buf ? ENOMEM : err;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Standard input, read the first time it is asked for; a copy of its text every time. */
static char *cp_text_read_stdin(size_t *len, size_t limit, cp_text_watch watch, void *ctx)
{
    if (!cp_text_stdin.read) {
        cp_text_stdin.read = 1;
        cp_text_stdin.text = cp_text_read_fd(STDIN_FILENO, &cp_text_stdin.len, limit, watch, ctx);
        cp_text_stdin.err = cp_text_stdin.text ? 0 : errno;
    }
    char *copy = cp_text_stdin.text ? malloc(cp_text_stdin.len + 1) : NULL;
    if (!copy) {
        errno = cp_text_stdin.text ? ENOMEM : cp_text_stdin.err;
        return NULL;
    }
    memcpy(copy, cp_text_stdin.text, cp_text_stdin.len + 1);
    *len = cp_text_stdin.len;
    return copy;
}

char *cp_text_read_watched(const char *path, size_t *len, size_t limit, cp_text_watch watch,
                           void *ctx)
{
    if (strcmp(path, "-") == 0)
        return cp_text_read_stdin(len, limit, watch, ctx);
    int fd = cp_text_open_regular(path);
    if (fd < 0)
        return NULL;
    struct stat sb; /* a regular file says its size: refused before reading */
    if (fstat(fd, &sb) == 0 && (uint64_t)sb.st_size > limit) {
        close(fd);
        errno = EFBIG;
        return NULL;
    }
    char *text = cp_text_read_fd(fd, len, limit, watch, ctx);
    int e = errno;
    close(fd);
    errno = e;
    return text;
}

char *cp_text_read_file(const char *path, size_t *len)
{
    return cp_text_read_watched(path, len, cp_text_read_limit(), NULL, NULL);
}

int cp_text_read_failed_limit(const char *path, int err, size_t limit, cp_status *st)
{
    if (err == EFBIG) {
        cp_status_set(st, CP_EXIT_RUNTIME, "'%s' is larger than the %zu-byte limit for inputs",
                      path, limit);
        cp_status_hint(st, "check that it is the file you meant; to read a larger one, set "
                           "COALPROBE_MAX_INPUT_BYTES to its size or more");
        return CP_EXIT_RUNTIME;
    }
    if (err == ESPIPE) {
        cp_status_set(st, CP_EXIT_USAGE, "'%s' is not a regular file (%s)", path,
                      cp_text_file_kind(path));
        cp_status_hint(st, "to read a pipe, give - and send it to standard input "
                           "(... | coalprobe show -)");
        return CP_EXIT_USAGE;
    }
    return cp_status_set(st, CP_EXIT_RUNTIME, "cannot read '%s': %s",
                         strcmp(path, "-") == 0 ? "standard input" : path,
                         err == ENOMEM ? "out of memory" : strerror(err ? err : EIO));
}

int cp_text_read_failed(const char *path, int err, cp_status *st)
{
    return cp_text_read_failed_limit(path, err, cp_text_read_limit(), st);
}

const char *cp_text_file_kind(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return "unknown";
    return S_ISDIR(sb.st_mode)    ? "a directory"
           : S_ISFIFO(sb.st_mode) ? "a FIFO or pipe"
           : S_ISCHR(sb.st_mode)  ? "a character device"
           : S_ISBLK(sb.st_mode)  ? "a block device"
           : S_ISSOCK(sb.st_mode) ? "a socket"
           : S_ISREG(sb.st_mode)  ? "a regular file"
                                  : "not a file";
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
