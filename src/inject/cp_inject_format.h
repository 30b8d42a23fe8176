/* cp_inject_format.h: numbers of the raw files written the same in every locale: the injection
 * library runs inside a program that may have set one with a decimal comma (LC_NUMERIC). */
#ifndef CP_INJECT_FORMAT_H
#define CP_INJECT_FORMAT_H

#include <stddef.h>
#include <stdio.h>

/* Writes v into buf (n bytes) in the C locale, whatever the calling thread's or the process's
 * locale is: as "%.*f" with `decimals` digits when decimals >= 0, else as "%.17g" (every double
 * read back exactly). Returns what snprintf returns. */
int cp_inject_format_double(char *buf, size_t n, double v, int decimals);

/* Writes one text field of a raw record to f, with \\, \t, \n and \r escaped; NULL as "". */
void cp_inject_format_text(FILE *f, const char *s);

#endif
