/* cp_text.h: text the reports and messages share: a whole file read as text, a command line
 * written back as a shell would read it, one CSV field, text wrapped to a width, and text made safe
 * for a terminal. */
#ifndef CP_TEXT_H
#define CP_TEXT_H

#include <stdio.h>

#include "cp_status.h"

/* The most bytes cp_text_read_file reads by default (1 GiB); the environment variable
 * COALPROBE_MAX_INPUT_BYTES (a positive number of bytes) sets another limit, and a value that
 * is not one is ignored. */
#define CP_TEXT_READ_LIMIT ((size_t)1 << 30)

/* The limit in force: COALPROBE_MAX_INPUT_BYTES, or CP_TEXT_READ_LIMIT; cp_text_read_limit_or:
 * COALPROBE_MAX_INPUT_BYTES, or fallback. */
size_t cp_text_read_limit(void);
size_t cp_text_read_limit_or(size_t fallback);

/* The whole of the file at path, NUL-terminated (its length in *len, NUL bytes inside it
 * included), in a malloc'd buffer the caller frees; NULL with errno set (ENOMEM when memory runs
 * out, EIO for a read error without one, EFBIG for a file over cp_text_read_limit() bytes: a
 * regular file refused by its size before reading, standard input once it passed the limit,
 * so `yes | ...` ends; EISDIR for a directory; ESPIPE for anything else that is not a regular
 * file: a FIFO, a device, a socket, opened without blocking and never read). "-" is standard input,
 * read once: naming it again gives the same text. */
char *cp_text_read_file(const char *path, size_t *len);

/* What watches a file being read: called with the text read so far (text[0..to), text[from..to)
 * new); a nonzero return stops the reading (cp_text_read_watched fails with ECANCELED). */
typedef int (*cp_text_watch)(void *ctx, const char *text, size_t from, size_t to);

/* cp_text_read_file with its own limit (in bytes) and a watch (NULL: none). */
char *cp_text_read_watched(const char *path, size_t *len, size_t limit, cp_text_watch watch,
                           void *ctx);

/* Records in st why cp_text_read_file failed on path with errno err: "'PATH' is larger than the
 * N-byte limit for inputs" with a hint for EFBIG (CP_EXIT_RUNTIME), "'PATH' is not a regular
 * file (a FIFO or pipe)" with a hint to give - for ESPIPE (CP_EXIT_USAGE), "cannot read 'PATH':
 * reason" otherwise (CP_EXIT_RUNTIME). Returns the exit code; _limit: for a read of another
 * limit than cp_text_read_limit(). */
int cp_text_read_failed(const char *path, int err, cp_status *st);
int cp_text_read_failed_limit(const char *path, int err, size_t limit, cp_status *st);

/* What the file at path is, for a message: "a directory", "a FIFO or pipe", "a character
 * device", ... */
const char *cp_text_file_kind(const char *path);

/* The words joined by single spaces, each shell-quoted ('...') where a shell would not read it
 * back as it is; first, when not NULL, stands in for words[0]. A malloc'd string the caller
 * frees, or NULL when memory runs out. */
char *cp_text_shell_join(int n, char *const *words, const char *first);

/* Writes text as one CSV field (RFC 4180: quoted, quotes doubled, when it holds a comma, a
 * quote or a line break); NULL writes an empty field. */
void cp_text_csv_field(FILE *out, const char *text);

/* A CSV line being written: cp_text_csv_cell writes a cell (cp_text_csv_field), after a comma
 * unless it is the line's first; cp_text_csv_end_line ends the line. Start with {out, 0}. */
typedef struct cp_text_csv_line {
    FILE *out;
    size_t ncells;
} cp_text_csv_line;
void cp_text_csv_cell(cp_text_csv_line *l, const char *text);
void cp_text_csv_end_line(cp_text_csv_line *l);

/* Writes text and a line break, wrapped at spaces to lines of at most width characters (0: one
 * line), the first line after `first`, every other after `rest` (both count toward the width);
 * never inside a `quoted command` (between backticks) when it can be helped; a word longer than
 * a line is cut; the spaces a line ends on are dropped. The one wrapper of the tables, the notes
 * on stderr and the trace report (help text has its own, cp_help_wrap: fixed columns and
 * paragraphs). */
void cp_text_wrap_first(FILE *out, const char *text, size_t width, const char *first,
                        const char *rest);

/* cp_text_wrap_first with no prefix on the first line. */
void cp_text_wrap(FILE *out, const char *text, size_t width, const char *rest);

/* Text from outside coalprobe (a traced program's arguments, kernel names from raw files, strings
 * of a compared report) made safe to show on a terminal: every control character (C0, DEL, and
 * the C1 range U+0080-U+009F encoded in UTF-8) becomes a visible escape (\n, \r, \t, \e for
 * ESC, \xHH otherwise; U+0080-U+009F as \u0080-\u009f); other bytes, UTF-8 included, pass
 * unchanged. NULL is "". */
void cp_text_put_printable(FILE *out, const char *text);

/* The same into dst as snprintf does: at most size - 1 bytes and a NUL (size > 0), never an
 * escape cut in half; returns the length the whole escaped text needs. */
size_t cp_text_printable(char *dst, size_t size, const char *text);

/* 1 when text holds a character cp_text_put_printable would escape. */
int cp_text_has_control(const char *text);

#endif
