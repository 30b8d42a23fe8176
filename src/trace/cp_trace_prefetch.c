/* cp_trace_prefetch.c: the nvdisasm prefetch (cp_trace_prefetch.h): a thread that waits for
 * cubin-CRC.cubin files to be renamed into the raw directory and disassembles each small one
 * whole into the listing cache, one at a time, until the program has ended. */
#define _GNU_SOURCE /* inotify_init1 */
#include "cp_trace_prefetch.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cp_trace_report.h"
#include "cp_trace_sass_cache.h"
#include "inject/cp_inject.h"

/* The most cubins one trace disassembles ahead (their CRCs are remembered to do each once). */
#define CP_TRACE_PREFETCH_MAX_CUBINS 256

struct cp_trace_prefetch {
    char dir[4096];
    char nvdisasm[4096];
    cp_trace_sass_cache cache;
    int fd; /* the inotify descriptor */
    pthread_t thread;
    volatile sig_atomic_t ending; /* the program has ended: no more waiting for cubins */
    volatile sig_atomic_t kill;   /* interrupted: stop the nvdisasm in progress too */
    uint32_t done[CP_TRACE_PREFETCH_MAX_CUBINS];
    size_t ndone, listed;
};

/* The CRC of a file named cubin-XXXXXXXX.cubin; 0 when name is not one. */
static int cp_trace_prefetch_crc(const char *name, uint32_t *crc)
{
    unsigned x = 0;
    int end = 0;
    if (strlen(name) != 20 || sscanf(name, "cubin-%8x.cubin%n", &x, &end) != 1 || end != 20)
        return 0;
    *crc = (uint32_t)x;
    return 1;
}

/* Disassembles DIR/name ahead when it is a small cubin not seen before. */
static void cp_trace_prefetch_one(cp_trace_prefetch *p, const char *name)
{
    uint32_t crc;
    if (!cp_trace_prefetch_crc(name, &crc) || p->ndone == CP_TRACE_PREFETCH_MAX_CUBINS)
        return;
    for (size_t i = 0; i < p->ndone; i++)
        if (p->done[i] == crc)
            return;
    char path[8200];
    snprintf(path, sizeof path, "%s/%s", p->dir, name);
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0 ||
        (unsigned long long)sb.st_size > CP_TRACE_EARLY_CUBIN_BYTES)
        return;
    p->done[p->ndone++] = crc;
    if (cp_trace_sass_prefetch(p->nvdisasm, &p->cache, crc, path, &p->kill) == 0)
        p->listed++;
}

/* Reads the events waiting on p->fd and handles each file renamed into the directory. */
static void cp_trace_prefetch_events(cp_trace_prefetch *p)
{
    char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(p->fd, buf, sizeof buf);
        if (n <= 0)
            return; /* EAGAIN: nothing more now */
        for (char *at = buf; at < buf + n;) {
            const struct inotify_event *e = (const struct inotify_event *)at;
            if (e->len > 0 && !p->kill)
                cp_trace_prefetch_one(p, e->name);
            at += sizeof *e + e->len;
        }
    }
}

static void *cp_trace_prefetch_thread(void *arg)
{
    cp_trace_prefetch *p = arg;
    /* the signals are the main thread's (it forwards them to the program) */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    while (!p->ending && !p->kill) {
        struct pollfd f = {.fd = p->fd, .events = POLLIN, .revents = 0};
        int r = poll(&f, 1, 50); /* checks the flags between events */
        if (r > 0)
            cp_trace_prefetch_events(p);
        else if (r < 0 && errno != EINTR)
            break;
    }
    return NULL;
}

cp_trace_prefetch *cp_trace_prefetch_start(const char *raw_dir)
{
    cp_trace_prefetch *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->fd = -1;
    snprintf(p->dir, sizeof p->dir, "%s", raw_dir);
    if (cp_trace_sass_tool(p->nvdisasm, sizeof p->nvdisasm) != 0)
        goto none;
    cp_trace_sass_cache_open(&p->cache, p->nvdisasm);
    if (!p->cache.dir[0])
        goto none; /* the report could not read what it would keep */
    p->fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (p->fd < 0 || inotify_add_watch(p->fd, raw_dir, IN_MOVED_TO) < 0)
        goto none;
    if (pthread_create(&p->thread, NULL, cp_trace_prefetch_thread, p) != 0)
        goto none;
    return p;
none:
    if (p->fd >= 0)
        close(p->fd);
    free(p);
    return NULL;
}

void cp_trace_prefetch_finish(cp_trace_prefetch *p, int interrupted, size_t *listed)
{
    if (listed)
        *listed = 0;
    if (!p)
        return;
    if (interrupted)
        p->kill = 1;
    p->ending = 1;
    pthread_join(p->thread, NULL);
    close(p->fd);
    if (listed)
        *listed = p->listed;
    free(p);
}
