/* cp_trace_lock.h: the lock that tells the launcher a traced process still writes its raw file,
 * shared by the injection library (which holds it) and the launcher (which waits for it); libc
 * only, so that the injection library stays free of coalprobe's core.
 *
 * A process holds an exclusive flock(2) on its raw file from before the file appears under its
 * name (it is created as .raw-PID.tsv.part, locked, then linked to raw-PID.tsv) until it has
 * written its end record; the kernel drops the lock when the process ends however it ends. The
 * lock is taken through an open file description of its own, which the library closes in a
 * forked child (pthread_atfork) and which exec closes (O_CLOEXEC), so that only the writer holds
 * it. The launcher asks for a shared lock without blocking: refused means still writing. */
#ifndef CP_TRACE_LOCK_H
#define CP_TRACE_LOCK_H

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

/* Opens path on a description of its own and locks it exclusively; returns the descriptor to
 * keep open while writing (closing it releases the lock), or -1 with errno set. */
static inline int cp_trace_lock_hold(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* 1 when a process holds the lock of the file at path (it still writes it), 0 when none does or
 * the file cannot be opened (it is then no longer being written under that name) or does not
 * support locks. */
static inline int cp_trace_lock_busy(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    int busy = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd); /* releases the shared lock just taken, if it was */
    return busy;
}

#endif
