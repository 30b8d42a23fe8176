/* cp_term.c: a terminal's width (COLUMNS, TIOCGWINSZ) and whether to colour (--color,
 * NO_COLOR, TERM). */
#define _DEFAULT_SOURCE /* TIOCGWINSZ */
#include "cp_term.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* $COLUMNS as a width, 0 when unset or not a plausible number. */
static size_t cp_term_columns_env(void)
{
    const char *s = getenv("COLUMNS");
    if (!s || !*s)
        return 0;
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || s[0] < '0' || s[0] > '9' || v < CP_TERM_MIN_WIDTH || v > 100000)
        return 0;
    return (size_t)v;
}

size_t cp_term_width(int fd)
{
    size_t env = cp_term_columns_env();
    if (env)
        return env;
    struct winsize ws;
    if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= CP_TERM_MIN_WIDTH)
        return ws.ws_col;
    return CP_TERM_DEFAULT_WIDTH;
}

int cp_term_color_parse(const char *name)
{
    static const char *const names[] = {"auto", "never", "always"};
    for (int i = 0; name && i < 3; i++)
        if (strcmp(name, names[i]) == 0)
            return i; /* CP_COLOR_* in this order */
    return -1;
}

int cp_term_color(cp_color_mode mode, int fd)
{
    if (mode != CP_COLOR_AUTO)
        return mode == CP_COLOR_ALWAYS;
    const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
    if (no && *no)
        return 0;
    if (term && strcmp(term, "dumb") == 0)
        return 0;
    return fd >= 0 && isatty(fd);
}
