/* cp_strbuf.h: a growing string that records its first failed allocation, so that a caller adds
 * freely and checks once; and a number written in the fewest digits that read back to it. */
#ifndef CP_STRBUF_H
#define CP_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/* Zero-initialised it is empty. After a failed allocation `failed` is set and later additions
 * are ignored; data is NUL-terminated whenever it is not NULL. */
typedef struct cp_strbuf {
    char *data;
    size_t len, cap;
    int failed;
} cp_strbuf;

/* Appends n bytes of s. */
void cp_strbuf_add(cp_strbuf *b, const char *s, size_t n);

/* Appends the string s. */
void cp_strbuf_str(cp_strbuf *b, const char *s);

/* Appends printf's output, however long. */
void cp_strbuf_printf(cp_strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The same with a va_list (which it uses up). */
void cp_strbuf_vprintf(cp_strbuf *b, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 0)))
#endif
    ;

/* Appends text from outside coalprobe escaped as cp_text_put_printable writes it. */
void cp_strbuf_printable(cp_strbuf *b, const char *s);

/* Appends v as cp_strbuf_format_number writes it. */
void cp_strbuf_number(cp_strbuf *b, double v);

/* Empties b, keeping its memory (and its failure). */
void cp_strbuf_reset(cp_strbuf *b);

/* The text, "" when empty, fallback when an allocation failed. */
const char *cp_strbuf_text(const cp_strbuf *b, const char *fallback);

/* The malloc'd text, handed to the caller (who frees it), b emptied; NULL when an allocation
 * failed (b is freed then). An empty b gives "" in a buffer of its own. */
char *cp_strbuf_steal(cp_strbuf *b);

/* Frees b's memory and empties it. */
void cp_strbuf_free(cp_strbuf *b);

/* v in the fewest significant digits that read back to it (up to 17), into out as snprintf
 * does; a whole number below 2^53 as its digits, -0 as 0. */
void cp_strbuf_format_number(char *out, size_t size, double v);

#endif
