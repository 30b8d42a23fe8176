/* cp_text.h: text the reports and messages share: a whole file read as text, a command line
 * written back as a shell would read it, and one CSV field. */
#ifndef CP_TEXT_H
#define CP_TEXT_H

#include <stdio.h>

/* The whole of the file at path, NUL-terminated (its length in *len, NUL bytes inside it
 * included), in a malloc'd buffer the caller frees; NULL with errno set (ENOMEM when memory runs
 * out, EIO for a read error without one). */
char *cp_text_read_file(const char *path, size_t *len);

/* The words joined by single spaces, each shell-quoted ('...') where a shell would not read it
 * back as it is; first, when not NULL, stands in for words[0]. A malloc'd string the caller
 * frees, or NULL when memory runs out. */
char *cp_text_shell_join(int n, char *const *words, const char *first);

/* Writes text as one CSV field (RFC 4180: quoted, quotes doubled, when it holds a comma, a
 * quote or a line break); NULL writes an empty field. */
void cp_text_csv_field(FILE *out, const char *text);

#endif
