/* cp_trace_sass_cache.c: nvdisasm's listings kept on disk, one file per cubin, function list and
 * nvdisasm (CACHE/sass-CRC-HASH.txt), each ending in a line that gives its length, so that a
 * file cut short is never read as a listing. */
#define _POSIX_C_SOURCE 200809L
#include "cp_trace_sass_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The last line of every cache file: this, a space, the bytes of listing before it. */
#define CP_TRACE_SASS_CACHE_END "# coalprobe-sass-cache end"

/* 64-bit FNV-1a of len bytes, continued from h. */
static uint64_t cp_trace_sass_cache_fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

#define CP_TRACE_SASS_CACHE_FNV0 UINT64_C(0xcbf29ce484222325)

void cp_trace_sass_cache_open(cp_trace_sass_cache *c, const char *nvdisasm)
{
    c->dir[0] = '\0';
    c->failure[0] = '\0';
    const char *chosen = getenv("COALPROBE_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    int w = -1;
    if (chosen) {
        if (!chosen[0]) {
            snprintf(c->failure, sizeof c->failure, "none: COALPROBE_CACHE_DIR is set and empty");
            return;
        }
        w = snprintf(c->dir, sizeof c->dir, "%s", chosen);
    } else if (xdg && xdg[0] == '/') { /* the XDG rule: a relative path is ignored */
        w = snprintf(c->dir, sizeof c->dir, "%s/coalprobe", xdg);
    } else if (home && home[0]) {
        w = snprintf(c->dir, sizeof c->dir, "%s/.cache/coalprobe", home);
    }
    struct stat sb;
    if (w < 0 || (size_t)w >= sizeof c->dir) {
        snprintf(c->failure, sizeof c->failure,
                 "none: neither COALPROBE_CACHE_DIR, XDG_CACHE_HOME nor HOME gives a directory");
        c->dir[0] = '\0';
    } else if (stat(nvdisasm, &sb) != 0) {
        snprintf(c->failure, sizeof c->failure, "none: cannot stat %s: %s", nvdisasm,
                 strerror(errno));
        c->dir[0] = '\0';
    } else { /* another nvdisasm (path, size or mtime) never reads this one's listings */
        uint64_t h =
            cp_trace_sass_cache_fnv(CP_TRACE_SASS_CACHE_FNV0, nvdisasm, strlen(nvdisasm) + 1);
        int64_t id[3] = {(int64_t)sb.st_size, (int64_t)sb.st_mtim.tv_sec,
                         (int64_t)sb.st_mtim.tv_nsec};
        c->tool = cp_trace_sass_cache_fnv(h, id, sizeof id);
    }
}

/* The cache file's path for this key into path[size]: 0, or -1 when it does not fit. */
static int cp_trace_sass_cache_path(const cp_trace_sass_cache *c, uint32_t crc,
                                    const char *functions, off_t cubin_size, char *path,
                                    size_t size)
{
    int64_t bytes = (int64_t)cubin_size;
    uint64_t h =
        cp_trace_sass_cache_fnv(CP_TRACE_SASS_CACHE_FNV0, functions, strlen(functions) + 1);
    h = cp_trace_sass_cache_fnv(h, &bytes, sizeof bytes);
    h = cp_trace_sass_cache_fnv(h, &c->tool, sizeof c->tool);
    int w = snprintf(path, size, "%s/sass-%08" PRIx32 "-%016" PRIx64 ".txt", c->dir, crc, h);
    return w < 0 || (size_t)w >= size ? -1 : 0;
}

/* The whole of a regular file (no FIFO, device or link followed), NUL-terminated, or NULL. */
static char *cp_trace_sass_cache_slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat sb;
    char *text = NULL;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= 0 &&
        (uint64_t)sb.st_size < SIZE_MAX / 2 && (text = malloc((size_t)sb.st_size + 1))) {
        size_t got = 0, want = (size_t)sb.st_size;
        while (got < want) {
            ssize_t r = read(fd, text + got, want - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        text[got] = '\0';
        *len = got;
    }
    close(fd);
    return text;
}

char *cp_trace_sass_cache_get(const cp_trace_sass_cache *c, uint32_t crc, const char *functions,
                              off_t cubin_size, size_t *len)
{
    char path[4200];
    size_t n = 0;
    char *text = NULL;
    if (!c->dir[0] || cp_trace_sass_cache_path(c, crc, functions, cubin_size, path, sizeof path) ||
        !(text = cp_trace_sass_cache_slurp(path, &n)))
        return NULL;
    /* the last line must be the end marker with the length of everything before it */
    size_t start = n;
    if (n > 0 && text[n - 1] == '\n')
        for (start = n - 1; start > 0 && text[start - 1] != '\n'; start--)
            ;
    static const char end[] = CP_TRACE_SASS_CACHE_END " ";
    unsigned long long said = 0;
    char *stop = NULL;
    if (start < n && n - start > sizeof end && memcmp(text + start, end, sizeof end - 1) == 0) {
        errno = 0;
        said = strtoull(text + start + sizeof end - 1, &stop, 10);
    }
    if (!stop || *stop != '\n' || stop != text + n - 1 || errno || said != start) {
        free(text);
        return NULL;
    }
    text[start] = '\0';
    *len = start;
    return text;
}

/* Creates dir and its missing parents (mode 0700): 0 when dir is then a directory. */
static int cp_trace_sass_cache_mkdir(char *dir)
{
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int r = mkdir(dir, 0700);
        *p = '/';
        if (r != 0 && errno != EEXIST)
            return -1;
    }
    struct stat sb;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return -1;
    if (stat(dir, &sb) != 0)
        return -1;
    if (!S_ISDIR(sb.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* One sass-* file of the directory, for the bound on its size. */
typedef struct cp_trace_sass_cache_file {
    char name[256];
    uint64_t bytes;
    struct timespec mtime;
} cp_trace_sass_cache_file;

static int cp_trace_sass_cache_older(const void *a, const void *b)
{
    const cp_trace_sass_cache_file *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Removes the oldest sass-* files of the directory until the rest hold at most
 * CP_TRACE_SASS_CACHE_MAX bytes. */
static void cp_trace_sass_cache_bound(const cp_trace_sass_cache *c)
{
    DIR *d = opendir(c->dir);
    if (!d)
        return;
    cp_trace_sass_cache_file *files = NULL;
    size_t n = 0, cap = 0;
    uint64_t total = 0;
    for (struct dirent *e; (e = readdir(d));) {
        struct stat sb;
        if (strncmp(e->d_name, "sass-", 5) != 0 || strlen(e->d_name) >= sizeof files->name ||
            fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
            continue;
        if (n == cap) {
            size_t want = cap ? 2 * cap : 64;
            cp_trace_sass_cache_file *grown = realloc(files, want * sizeof *grown);
            if (!grown)
                break;
            files = grown;
            cap = want;
        }
        snprintf(files[n].name, sizeof files[n].name, "%s", e->d_name);
        files[n].bytes = (uint64_t)sb.st_size;
        files[n].mtime = sb.st_mtim;
        total += files[n++].bytes;
    }
    if (total > CP_TRACE_SASS_CACHE_MAX) {
        qsort(files, n, sizeof *files, cp_trace_sass_cache_older);
        for (size_t i = 0; i < n && total > CP_TRACE_SASS_CACHE_MAX; i++)
            if (unlinkat(dirfd(d), files[i].name, 0) == 0 || errno == ENOENT)
                total -= files[i].bytes;
    }
    free(files);
    closedir(d);
}

/* Writes len bytes to fd: 0, or -1 with errno. */
static int cp_trace_sass_cache_write(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

void cp_trace_sass_cache_put(cp_trace_sass_cache *c, uint32_t crc, const char *functions,
                             off_t cubin_size, const char *text, size_t len)
{
    char path[4200], tmp[4200], end[64];
    if (!c->dir[0] || cp_trace_sass_cache_path(c, crc, functions, cubin_size, path, sizeof path))
        return;
    const char *what = "cannot create the directory";
    int fd = -1, ok = 0, err = 0;
    snprintf(tmp, sizeof tmp, "%s/sass-tmp-XXXXXX", c->dir);
    if (cp_trace_sass_cache_mkdir(c->dir) == 0) {
        what = "cannot create a file";
        fd = mkstemp(tmp);
    }
    if (fd >= 0) {
        int w = snprintf(end, sizeof end, "%s" CP_TRACE_SASS_CACHE_END " %zu\n",
                         len > 0 && text[len - 1] != '\n' ? "\n" : "",
                         len > 0 && text[len - 1] != '\n' ? len + 1 : len);
        what = "cannot write";
        ok = cp_trace_sass_cache_write(fd, text, len) == 0 &&
             cp_trace_sass_cache_write(fd, end, (size_t)w) == 0;
        ok = close(fd) == 0 && ok;
        if (ok && !(ok = rename(tmp, path) == 0))
            what = "cannot rename into place";
        err = errno;
        if (!ok)
            (void)unlink(tmp);
    } else {
        err = errno;
    }
    if (!ok && !c->failure[0])
        snprintf(c->failure, sizeof c->failure, "%s in %.300s: %s", what, c->dir, strerror(err));
    if (ok)
        cp_trace_sass_cache_bound(c);
}
