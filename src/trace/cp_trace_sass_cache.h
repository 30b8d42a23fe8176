/* cp_trace_sass_cache.h: the cache of nvdisasm's listings that cp_trace_sass.c reads before it runs
 * nvdisasm, so that a trace of an unchanged program does not disassemble its cubins again. */
#ifndef CP_TRACE_SASS_CACHE_H
#define CP_TRACE_SASS_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The most bytes of sass-* files the cache directory keeps: past it, writing a listing removes
 * the oldest files (by mtime) until the rest fit. */
#define CP_TRACE_SASS_CACHE_MAX ((uint64_t)256 << 20)

/* The cache for one trace: its directory ("" when there is none) and the identity of the
 * nvdisasm whose listings it holds. */
typedef struct cp_trace_sass_cache {
    char dir[4096];
    uint64_t tool;     /* a hash of the nvdisasm's path, size and mtime */
    char failure[512]; /* for --verbose: why there is no cache, or its first failure, or "" */
} cp_trace_sass_cache;

/* Finds the directory: $COALPROBE_CACHE_DIR when set (set and empty: no cache), else
 * $XDG_CACHE_HOME/coalprobe, else $HOME/.cache/coalprobe; created (mode 0700) on the first write.
 * No cache either when nvdisasm cannot be stat'ed. */
void cp_trace_sass_cache_open(cp_trace_sass_cache *c, const char *nvdisasm);

/* The cached listing of cubin crc (of cubin_size bytes) disassembled with `-fun functions` ("" for
 * the whole cubin): a malloc'd NUL-terminated text of *len bytes, or NULL when there is none or
 * the file is incomplete. */
char *cp_trace_sass_cache_get(const cp_trace_sass_cache *c, uint32_t crc, const char *functions,
                              off_t cubin_size, size_t *len);

/* Keeps a complete listing in the cache (a temporary file renamed into place), then bounds the
 * directory to CP_TRACE_SASS_CACHE_MAX. A failure is only recorded in c->failure. */
void cp_trace_sass_cache_put(cp_trace_sass_cache *c, uint32_t crc, const char *functions,
                             off_t cubin_size, const char *text, size_t len);

#endif
