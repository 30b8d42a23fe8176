/* cp_term.h: what a terminal allows the text written to it: its width (the tables fit it) and
 * whether to colour (--color, NO_COLOR). */
#ifndef CP_TERM_H
#define CP_TERM_H

#include <stddef.h>

/* The width a table takes when nothing says otherwise: a terminal's is used when it is one. */
#define CP_TERM_DEFAULT_WIDTH 100
/* Below this a width (COLUMNS, a terminal's) is not believed: tables keep their keys anyway. */
#define CP_TERM_MIN_WIDTH 40

/* The columns the text written to descriptor fd may take: $COLUMNS when it holds a number of at
 * least CP_TERM_MIN_WIDTH (set on purpose, terminal or not), else the terminal's width
 * (TIOCGWINSZ) when fd is one, else CP_TERM_DEFAULT_WIDTH. fd -1: not a terminal. */
size_t cp_term_width(int fd);

/* --color: never, auto (a terminal that takes colours, without NO_COLOR) or always. */
typedef enum { CP_COLOR_AUTO, CP_COLOR_NEVER, CP_COLOR_ALWAYS } cp_color_mode;

/* The mode named ("never", "auto", "always"), -1 for another name. */
int cp_term_color_parse(const char *name);

/* 1 when text written to fd is coloured: always; never; auto when fd is a terminal, NO_COLOR is
 * unset or empty (no-color.org) and TERM is not "dumb". */
int cp_term_color(cp_color_mode mode, int fd);

/* ANSI escapes; "" when colour is off. */
#define CP_TERM_RED "\033[1;31m"
#define CP_TERM_GREEN "\033[32m"
#define CP_TERM_YELLOW "\033[33m"
#define CP_TERM_DIM "\033[2m"
#define CP_TERM_RESET "\033[0m"

#endif
