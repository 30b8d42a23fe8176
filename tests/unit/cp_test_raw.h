/* cp_test_raw.h: the injection library's tests read the raw file this process wrote. */
#ifndef CP_TEST_RAW_H
#define CP_TEST_RAW_H

#include <stdio.h>
#include <unistd.h>

#include "inject/cp_trace_raw.h"

/* Reads DIR/raw-PID.tsv of this process into buf (n bytes, NUL-terminated); its path into path
 * when path is not NULL (pathlen bytes). 0, or -1 when there is none. */
static inline int cp_test_read_raw(const char *dir, char *buf, size_t n, char *path, size_t pathlen)
{
    char own[4200];
    if (!path)
        path = own, pathlen = sizeof own;
    snprintf(path, pathlen, "%s/%s%ld%s", dir, CP_TRACE_RAW_PREFIX, (long)getpid(),
             CP_TRACE_RAW_SUFFIX);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
    return 0;
}

#endif
