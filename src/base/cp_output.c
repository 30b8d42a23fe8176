/* cp_output.c: writing every output file by the rules of cp_output.h: a new or regular file
 * replaced atomically (temporary file, fsync, rename, fsync of the directory), a symbolic link
 * followed, a special file written in place, a directory or block device refused; every write
 * goes through a stdio cookie that keeps the first error, so that the message names the path
 * and the real reason whatever the writer printed. */
#define _GNU_SOURCE /* fopencookie */
#include "cp_output.h"

#include "cp_base.h" /* CP_COUNT_OF */
#include "cp_parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Links followed before giving up with ELOOP (the kernel's own limit). */
#define CP_OUTPUT_MAX_LINKS 40
/* Characters of the target's name kept in the temporary file's name (NAME_MAX is 255). */
#define CP_OUTPUT_TEMP_STEM 200

struct cp_output_sink {
    int fd;          /* the destination, or the temporary file; -1 before begin, once closed */
    int owned;       /* 0 for standard output, which stays open */
    int error;       /* errno of the first failed write; 0 while none failed */
    mode_t type;     /* what the target is when opened: S_IFREG, S_IFCHR, ..., 0 for nothing */
    struct stat old; /* its lstat when it exists */
    int unnamed;     /* the temporary file is unnamed (O_TMPFILE) until it is committed */
};

/* The temporary files being written that have a name, which a signal handler removes
 * (cp_output_remove_temps): a slot holds a temp_path from its creation until it is renamed or
 * removed. More outputs at once than slots are not tracked (no command writes that many). */
#define CP_OUTPUT_MAX_TEMPS 16
static char *volatile cp_output_temps[CP_OUTPUT_MAX_TEMPS];

static void cp_output_track(char *path)
{
    for (size_t k = 0; k < CP_OUTPUT_MAX_TEMPS; k++)
        if (!cp_output_temps[k]) {
            cp_output_temps[k] = path;
            return;
        }
}

static void cp_output_untrack(const char *path)
{
    for (size_t k = 0; path && k < CP_OUTPUT_MAX_TEMPS; k++)
        if (cp_output_temps[k] == path)
            cp_output_temps[k] = NULL;
}

void cp_output_remove_temps(void)
{
    for (size_t k = 0; k < CP_OUTPUT_MAX_TEMPS; k++) {
        char *p = cp_output_temps[k];
        if (p)
            unlink(p);
    }
}

/* A signal that ends the process: the temporary files go first, then the signal's default
 * action (the process ends by it, 128 + n in the shell). Only async-signal-safe calls. */
static void cp_output_on_fatal(int sig)
{
    cp_output_remove_temps();
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig); /* blocked in its handler: delivered, by its default action, on return */
}

static void cp_output_no_op(int sig)
{
    (void)sig;
}

void cp_output_catch_signals(void)
{
    static const int sigs[] = {SIGPIPE, SIGXFSZ, SIGHUP,  SIGINT, SIGQUIT,
                               SIGTERM, SIGUSR1, SIGUSR2, SIGALRM};
    for (size_t k = 0; k < CP_COUNT_OF(sigs); k++) {
        struct sigaction old;
        if (sigaction(sigs[k], NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
            old.sa_handler != SIG_DFL)
            continue; /* ignored or handled by whoever runs us: leave it so */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        int quiet = sigs[k] == SIGPIPE || sigs[k] == SIGXFSZ; /* a write's error, not an end */
        sa.sa_handler = quiet ? cp_output_no_op : cp_output_on_fatal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = quiet ? SA_RESTART : 0;
        sigaction(sigs[k], &sa, NULL);
    }
}

/* The cookie's write: all of buf, or the first error kept (and every later write refused, so
 * that a report never has a hole in the middle). A short count makes stdio set the error flag. */
static ssize_t cp_output_sink_write(void *cookie, const char *buf, size_t size)
{
    struct cp_output_sink *s = cookie;
    size_t done = 0;
    while (!s->error && done < size) {
        ssize_t w = write(s->fd, buf + done, size - done);
        if (w > 0)
            done += (size_t)w;
        else if (w < 0 && errno != EINTR)
            s->error = errno;
        else if (w == 0)
            s->error = EIO;
    }
    return (ssize_t)done;
}

/* "cannot write 'PATH': reason", naming the link's target when the path is a link. */
static int cp_output_error(const cp_output *out, const char *path, int err, cp_status *st)
{
    if (!path)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write to standard output: %s",
                             strerror(err));
    if (out && out->target && strcmp(out->target, path) != 0)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write '%s' (the link's target '%s'): %s",
                             path, out->target, strerror(err));
    return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write '%s': %s", path, strerror(err));
}

/* The directory part of path with its slash ("dir/", "/"), "" for a bare name. */
static size_t cp_output_dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) + 1 : 0;
}

/* The text of the symbolic link at path (malloc'd), or NULL with errno set. */
static char *cp_output_read_link(const char *path)
{
    for (size_t cap = 256; cap <= (1u << 20); cap *= 2) {
        char *buf = malloc(cap);
        if (!buf)
            return NULL;
        ssize_t n = readlink(path, buf, cap);
        if (n < 0) {
            int e = errno;
            free(buf);
            errno = e;
            return NULL;
        }
        if ((size_t)n < cap) {
            buf[n] = '\0';
            return buf;
        }
        free(buf);
    }
    errno = ENAMETOOLONG;
    return NULL;
}

/* The descriptor a path names when it is one of the process's own (/proc/self/fd/N,
 * /dev/fd/N; /dev/stdout is a link to /proc/self/fd/1), or -1. Such a path is a "magic" link to
 * an open file: what it reaches is that descriptor's file, wherever its offset (or O_APPEND)
 * stands, so it is written through the descriptor, never replaced. */
static int cp_output_fd_alias(const char *p)
{
    static const char *const dirs[] = {"/proc/self/fd/", "/dev/fd/"};
    for (size_t k = 0; k < 2; k++) {
        size_t len = strlen(dirs[k]);
        if (strncmp(p, dirs[k], len) != 0 || !p[len] || strlen(p + len) > 6)
            continue;
        int fd = 0;
        for (const char *d = p + len; *d; d++) {
            if (*d < '0' || *d > '9')
                return -1;
            fd = fd * 10 + (*d - '0');
        }
        return fd;
    }
    return -1;
}

/* Follows path's chain of symbolic links to the file at its end: *target (malloc'd) is that
 * file's path (path itself when it is no link); *exists says whether anything is there, *sb its
 * lstat; *alias is the descriptor when the chain reaches one of the process's own (see
 * cp_output_fd_alias), -1 otherwise. A link's relative text is relative to the link's
 * directory. Returns 0 or an errno. */
static int cp_output_resolve(const char *path, char **target, struct stat *sb, int *exists,
                             int *alias)
{
    char *p = strdup(path);
    *alias = -1;
    for (int hops = 0; p; hops++) {
        if ((*alias = cp_output_fd_alias(p)) >= 0) {
            *exists = 1;
            *target = p;
            return 0;
        }
        if (lstat(p, sb) != 0) {
            if (errno != ENOENT)
                break;
            *exists = 0; /* nothing there (or no parent directory: creating says so) */
            *target = p;
            return 0;
        }
        if (!S_ISLNK(sb->st_mode)) {
            *exists = 1;
            *target = p;
            return 0;
        }
        if (hops == CP_OUTPUT_MAX_LINKS) {
            errno = ELOOP;
            break;
        }
        char *link = cp_output_read_link(p);
        if (!link)
            break;
        size_t dir = link[0] == '/' ? 0 : cp_output_dir_len(p);
        char *next = malloc(dir + strlen(link) + 1);
        if (next) {
            memcpy(next, p, dir);
            strcpy(next + dir, link);
        }
        free(link);
        free(p);
        p = next;
    }
    int e = p ? errno : ENOMEM;
    free(p);
    return e ? e : EIO;
}

/* Six characters for a temporary name: the time, the process and a counter, mixed. */
static void cp_output_random_suffix(char *dst)
{
    static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static unsigned counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 40) ^
                 (uint64_t)++counter * 0x9E3779B97F4A7C15ull;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    for (int k = 0; k < 6; k++, x /= 62)
        dst[k] = set[x % 62];
}

/* Creates the temporary file beside out->target: TARGET.tmp-XXXXXX (the name cut to
 * CP_OUTPUT_TEMP_STEM characters). A new report is created 0666 so that the kernel applies the
 * umask and a default ACL exactly as for `>`; one that replaces a file is created 0600 and then
 * given the old file's owner (where allowed) and permission bits. Returns the descriptor or -1
 * with errno set. */
/* Makes out->temp_path TARGET.tmp-XXXXXX and gives that name to a file: make(path) returns 0
 * or an errno, EEXIST for a name taken (another is tried). On success the name is tracked for
 * the signal handlers; on failure temp_path is NULL and errno is set. */
static int cp_output_name_temp(cp_output *out, int (*make)(const char *path, void *arg), void *arg)
{
    const char *t = out->target;
    size_t dir = cp_output_dir_len(t), name = strlen(t + dir);
    if (name > CP_OUTPUT_TEMP_STEM)
        name = CP_OUTPUT_TEMP_STEM;
    out->temp_path = malloc(dir + name + 12);
    if (!out->temp_path)
        return -1;
    memcpy(out->temp_path, t, dir + name);
    char *suffix = out->temp_path + dir + name;
    memcpy(suffix, ".tmp-XXXXXX", 12);
    int e = EEXIST;
    for (int tries = 0; tries < 100 && e == EEXIST; tries++) {
        cp_output_random_suffix(suffix + 5);
        e = make(out->temp_path, arg);
    }
    if (e) {
        free(out->temp_path);
        out->temp_path = NULL; /* nothing of ours to remove */
        errno = e;
        return -1;
    }
    cp_output_track(out->temp_path);
    return 0;
}

/* cp_output_name_temp's maker of a new named file: arg is {mode, descriptor}. */
static int cp_output_make_named(const char *path, void *arg)
{
    int *io = arg;
    io[1] = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, (mode_t)io[0]);
    return io[1] < 0 ? errno : 0;
}

/* An unnamed file in the target's directory (O_TMPFILE), or -1 where the kernel or the file
 * system offers none (the caller then names its temporary file from the start). */
static int cp_output_open_unnamed(const char *target, mode_t mode)
{
#ifdef O_TMPFILE
    size_t len = cp_output_dir_len(target);
    char *dir = len ? strndup(target, len) : strdup(".");
    if (!dir)
        return -1;
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
    free(dir);
    return fd;
#else
    (void)target;
    (void)mode;
    return -1;
#endif
}

static int cp_output_create_temp(cp_output *out, int replaces, const struct stat *old)
{
    mode_t mode = replaces ? 0600 : 0666;
    int fd = cp_output_open_unnamed(out->target, mode);
    if (fd >= 0) {
        out->sink->unnamed = 1;
    } else {
        int io[2] = {(int)mode, -1};
        if (cp_output_name_temp(out, cp_output_make_named, io) != 0)
            return -1;
        fd = io[1];
    }
    if (replaces) {
        struct stat now;
        if (fstat(fd, &now) == 0 && (now.st_uid != old->st_uid || now.st_gid != old->st_gid) &&
            fchown(fd, old->st_uid, old->st_gid) != 0) {
            /* not allowed (another user's file, a group we are not in): the new file is ours */
        }
        if (fchmod(fd, old->st_mode & 07777) != 0) {
            int e = errno;
            close(fd);
            errno = e;
            return -1; /* the caller removes the temporary file */
        }
    }
    return fd;
}

/* Connects to the Unix stream socket at path; returns the descriptor or -1 with errno set. */
static int cp_output_connect(const char *path)
{
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof addr.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(addr.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (const struct sockaddr *)&addr, sizeof addr) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* Opens a character device or FIFO in place: no O_CREAT, no O_TRUNC; refuses it if it was
 * swapped for something else since lstat. */
static int cp_output_open_special(const char *path, mode_t type)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -1;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || (sb.st_mode & S_IFMT) != type) {
        close(fd);
        errno = EAGAIN; /* "Resource temporarily unavailable": it changed under us */
        return -1;
    }
    return fd;
}

/* The sink of a destination not open yet (fd -1); -1 when memory runs out. */
static int cp_output_new_sink(cp_output *out)
{
    out->sink = calloc(1, sizeof *out->sink);
    if (!out->sink)
        return -1;
    out->sink->fd = -1;
    return 0;
}

/* Wraps fd in the FILE the writers use; on failure fd is closed when owned. */
static int cp_output_wrap(cp_output *out, int fd, int owned)
{
    if (!out->sink && cp_output_new_sink(out) != 0) {
        if (owned)
            close(fd);
        return -1;
    }
    out->sink->fd = fd;
    out->sink->owned = owned;
    cookie_io_functions_t io = {NULL, cp_output_sink_write, NULL, NULL};
    out->file = fopencookie(out->sink, "w", io);
    if (!out->file)
        return -1;
    setvbuf(out->file, NULL, _IOFBF, 1 << 16);
    return 0;
}

/* Whether this process may write what the target names, by its effective ids (as open would
 * decide): a new file needs a directory it may write and search, a regular file to replace needs
 * that and write permission on the file itself (the shell's `>` refuses a read-only file,
 * though a rename could replace it), a special file write permission. Returns 0 or an errno;
 * *file_refused is 1 when what is refused is the regular file itself. */
static int cp_output_check_access(const char *target, mode_t type, int *file_refused)
{
    *file_refused = 0;
    if (type == 0 || type == S_IFREG) {
        size_t len = cp_output_dir_len(target);
        char *dir = len ? strndup(target, len) : strdup(".");
        if (!dir)
            return ENOMEM;
        int e = faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0 ? errno : 0;
        free(dir);
        if (e)
            return e;
    }
    if (type != 0 && faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0) {
        *file_refused = type == S_IFREG;
        return errno;
    }
    return 0;
}

static int cp_output_fail_open(cp_output *out, int err, const char *hint, cp_status *st)
{
    cp_output_error(out, out->path, err, st);
    if (hint)
        cp_status_hint(st, "%s", hint);
    cp_output_abort(out);
    return CP_EXIT_RUNTIME;
}

int cp_output_open(cp_output *out, const char *path, cp_status *st)
{
    memset(out, 0, sizeof *out);
    if (!path || strcmp(path, "-") == 0) {
        fflush(stdout); /* what was printed before comes first */
        out->direct = 1;
        if (cp_output_wrap(out, STDOUT_FILENO, 0) != 0) {
            cp_output_abort(out);
            return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
        }
        return CP_EXIT_OK;
    }
    out->path = strdup(path);
    if (!out->path) {
        cp_output_abort(out);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    }
    if (!*path)
        return cp_output_fail_open(out, ENOENT, "give a file name, or '-' for standard output", st);
    struct stat sb;
    int exists = 0, alias = -1;
    int e = cp_output_resolve(path, &out->target, &sb, &exists, &alias);
    if (e)
        return cp_output_fail_open(out, e, "check the path and its symbolic links", st);
    if (alias == STDOUT_FILENO) { /* -o /dev/stdout: standard output itself */
        cp_output_abort(out);
        return cp_output_open(out, "-", st);
    }
    if (alias >= 0) { /* another descriptor of ours (/dev/stderr, /dev/fd/3): written through */
        out->direct = 1;
        int fd = fcntl(alias, F_DUPFD_CLOEXEC, 3);
        if (fd < 0)
            return cp_output_fail_open(out, errno, "that descriptor is not open", st);
        if (cp_output_wrap(out, fd, 1) != 0)
            return cp_output_fail_open(out, ENOMEM, NULL, st);
        return CP_EXIT_OK;
    }
    mode_t type = exists ? sb.st_mode & S_IFMT : 0;
    if (type == S_IFDIR) {
        cp_status_set(st, CP_EXIT_RUNTIME, "cannot write '%s': it is a directory", path);
        cp_status_hint(st, "give a file name, e.g. %s/report.json", path);
        cp_output_abort(out);
        return CP_EXIT_RUNTIME;
    }
    if (type == S_IFBLK) {
        cp_status_set(st, CP_EXIT_RUNTIME, "cannot write '%s': it is a block device", path);
        cp_status_hint(st, "a report never overwrites a disk: give the name of a file");
        cp_output_abort(out);
        return CP_EXIT_RUNTIME;
    }
    if (type != 0 && type != S_IFREG && type != S_IFCHR && type != S_IFIFO && type != S_IFSOCK)
        return cp_output_fail_open(out, EINVAL, NULL, st);
    out->direct = type != 0 && type != S_IFREG;
    int file_refused = 0;
    e = cp_output_check_access(out->target, type, &file_refused);
    if (e == EACCES && file_refused) {
        cp_status_set(st, CP_EXIT_RUNTIME,
                      "cannot write '%s': %s is read-only for this user, so it is not replaced",
                      path, strcmp(out->target, path) == 0 ? "the file" : "the link's target");
        cp_status_hint(st, "give another file name, or make it writable first (chmod u+w), as "
                           "the shell's `>` would need");
        cp_output_abort(out);
        return CP_EXIT_RUNTIME;
    }
    if (e)
        return cp_output_fail_open(out, e,
                                   type == 0 || type == S_IFREG
                                       ? "check that the directory exists and is writable"
                                       : "check the file's permissions",
                                   st);
    if (cp_output_new_sink(out) != 0)
        return cp_output_fail_open(out, ENOMEM, NULL, st);
    out->sink->type = type;
    if (exists)
        out->sink->old = sb;
    return CP_EXIT_OK;
}

int cp_output_begin(cp_output *out, cp_status *st)
{
    if (out->file)
        return CP_EXIT_OK; /* standard output, a descriptor of ours, or begun already */
    if (!out->sink || !out->target)
        return cp_status_set(st, CP_EXIT_RUNTIME, "internal error: no output open to begin");
    mode_t type = out->sink->type;
    int fd;
    const char *hint = "check that the directory exists and is writable";
    if (type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK) {
        fd = type == S_IFSOCK ? cp_output_connect(out->target)
                              : cp_output_open_special(out->target, type);
        hint = type == S_IFSOCK ? "a socket must be a Unix stream socket that someone listens on"
                                : "check the file's permissions";
    } else {
        fd = cp_output_create_temp(out, type == S_IFREG, &out->sink->old);
    }
    int sig = cp_parallel_cancelled();
    if (fd < 0 && errno == EINTR && sig) { /* a signal that stops the run, while a FIFO waited */
        cp_status_set(st, 128 + sig,
                      "interrupted by signal %d (%s) while '%s' waited for its reader: nothing "
                      "was written to it",
                      sig, strsignal(sig), out->path);
        cp_output_abort(out);
        return 128 + sig;
    }
    if (fd < 0)
        return cp_output_fail_open(out, errno, hint, st);
    if (cp_output_wrap(out, fd, 1) != 0)
        return cp_output_fail_open(out, ENOMEM, NULL, st);
    return CP_EXIT_OK;
}

int cp_output_failed(const cp_output *out, cp_status *st)
{
    if (!out->sink || !out->sink->error)
        return CP_EXIT_OK;
    if (!out->path && out->sink->error == EPIPE) {
        cp_status_set(st, CP_EXIT_PIPE, "standard output was closed by its reader");
        return CP_EXIT_PIPE;
    }
    int e = out->sink->error;
    cp_output_error(out, out->path, e, st);
    if (e == ENOSPC || e == EDQUOT)
        cp_status_hint(st, "make room on its file system, or write the report elsewhere");
    else if (e == EFBIG)
        cp_status_hint(st, "the file size limit (ulimit -f) is too small for the report");
    else if (e == EPIPE)
        cp_status_hint(st, "its reader stopped reading before the end of the report");
    return CP_EXIT_RUNTIME;
}

/* fsync of the directory that holds path, so that the rename survives a crash; best effort (a
 * file system may not support it, and the report is in place either way). */
static void cp_output_sync_dir(const char *path)
{
    size_t len = cp_output_dir_len(path);
    char *dir = len ? strndup(path, len) : strdup(".");
    if (!dir)
        return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd >= 0) {
        if (fsync(fd) != 0) {
            /* ignored: see above */
        }
        close(fd);
    }
}

/* cp_output_name_temp's maker that links the unnamed file (arg: its descriptor) to path:
 * through /proc/self/fd, or by AT_EMPTY_PATH where /proc is not mounted (that needs
 * CAP_DAC_READ_SEARCH). */
static int cp_output_make_link(const char *path, void *arg)
{
    int fd = *(int *)arg;
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0)
        return 0;
    if (errno == EEXIST)
        return EEXIST;
    return linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH) == 0 ? 0 : errno;
}

/* cp_output_name_temp's maker of a named copy of the unnamed file (arg: its descriptor), for
 * when it cannot be linked. */
static int cp_output_make_copy(const char *path, void *arg)
{
    int from = *(int *)arg;
    struct stat sb;
    if (fstat(from, &sb) != 0)
        return errno;
    int io[2] = {(int)(sb.st_mode & 07777), -1};
    int e = cp_output_make_named(path, io);
    if (e)
        return e;
    char buf[1 << 16];
    off_t at = 0;
    for (ssize_t got; !e && (got = pread(from, buf, sizeof buf, at)) != 0; at += got > 0 ? got : 0)
        if (got < 0)
            e = errno;
        else if (write(io[1], buf, (size_t)got) != got)
            e = errno ? errno : EIO;
    if (!e && fchmod(io[1], sb.st_mode & 07777) != 0) /* the umask applied at creation */
        e = errno;
    if (!e && (fsync(io[1]) != 0 && errno != EINVAL))
        e = errno;
    if (close(io[1]) != 0 && !e)
        e = errno;
    if (e)
        unlink(path);
    return e == EEXIST ? EIO : e; /* EEXIST would mean: try another name */
}

/* Gives the unnamed temporary file fd its name beside the target (linked, or else copied), so
 * that it can be renamed into place. 0, or -1 with errno set. */
static int cp_output_link_temp(cp_output *out, int fd)
{
    if (cp_output_name_temp(out, cp_output_make_link, &fd) == 0)
        return 0;
    return cp_output_name_temp(out, cp_output_make_copy, &fd);
}

int cp_output_temp_fd(cp_output *out)
{
    if (!out->file || !out->sink || out->direct)
        return -1;
    fflush(out->file);
    return out->sink->fd;
}

int cp_output_commit(cp_output *out, cp_status *st)
{
    if (!out->file && !out->sink)
        return CP_EXIT_OK;            /* closed already */
    CP_TRY(cp_output_begin(out, st)); /* nothing written: an empty output */
    int fd = out->sink->fd;
    int flushed = fflush(out->file) == 0;
    fclose(out->file); /* nothing left to flush: the cookie's close does not close fd */
    out->file = NULL;
    int rc = cp_output_failed(out, st);
    if (rc == CP_EXIT_OK && !flushed)
        rc = cp_output_error(out, out->path, EIO, st);
    int e = 0;
    if (out->direct) {
        if (out->sink->owned && close(fd) != 0 && rc == CP_EXIT_OK && errno != EINTR)
            rc = cp_output_error(out, out->path, errno, st);
        out->sink->fd = -1;
    } else {
        /* fsync: a full disk or an I/O error may show only now (NFS, quotas); EINVAL is a file
         * system without it */
        if (rc == CP_EXIT_OK && fsync(fd) != 0 && errno != EINVAL)
            e = errno;
        if (rc == CP_EXIT_OK && !e && out->sink->unnamed && cp_output_link_temp(out, fd) != 0)
            e = errno;
        if (close(fd) != 0 && !e && errno != EINTR)
            e = errno;
        out->sink->fd = -1;
        if (rc == CP_EXIT_OK && e)
            rc = cp_output_error(out, out->path, e, st);
        struct stat now; /* something other than a file put there meanwhile is kept */
        if (rc == CP_EXIT_OK && lstat(out->target, &now) == 0 && !S_ISREG(now.st_mode)) {
            rc = cp_status_set(st, CP_EXIT_RUNTIME,
                               "cannot write '%s': '%s' is no longer a regular file (it was "
                               "replaced while the report was written), so it is left as it is",
                               out->path, out->target);
            cp_status_hint(st, "run again");
        }
        if (rc == CP_EXIT_OK && rename(out->temp_path, out->target) != 0)
            rc = cp_output_error(out, out->path, errno, st);
        if (rc == CP_EXIT_OK) {
            cp_output_untrack(out->temp_path);
            free(out->temp_path);
            out->temp_path = NULL; /* renamed: nothing to remove */
            cp_output_sync_dir(out->target);
        }
    }
    cp_output_abort(out);
    return rc;
}

int cp_output_close(cp_output *out, int rc, cp_status *st)
{
    if (rc == CP_EXIT_OK)
        return cp_output_commit(out, st);
    if (out->file)
        fflush(out->file); /* a write error may show only now */
    int failed = cp_output_failed(out, st);
    cp_output_abort(out);
    return failed != CP_EXIT_OK ? failed : rc;
}

void cp_output_abort(cp_output *out)
{
    if (out->file)
        fclose(out->file);
    out->file = NULL;
    if (out->sink && out->sink->owned && out->sink->fd >= 0)
        close(out->sink->fd);
    if (out->temp_path)
        unlink(out->temp_path);
    cp_output_untrack(out->temp_path);
    free(out->sink);
    free(out->temp_path);
    free(out->target);
    free(out->path);
    memset(out, 0, sizeof *out);
}

int cp_output_check_name(const char *option, const char *path, const char *format, cp_status *st)
{
    if (!path || path[0] != '-' || !path[1] || (path[1] != '-' && path[2]))
        return CP_EXIT_OK; /* "-" is standard output; "-x.json" a file */
    cp_status_set(st, CP_EXIT_USAGE, "%s '%s': the file name is an option", option, path);
    if (format)
        cp_status_hint(st,
                       "%s takes a file name (%s FILE writes a report beside the main one; "
                       "--format %s makes it the main report); for a file of that name write "
                       "./%s",
                       option, option, format, path);
    else
        cp_status_hint(st, "%s takes a file name (%s FILE); for a file of that name write ./%s",
                       option, option, path);
    return CP_EXIT_USAGE;
}

/* The device and inode of what standard output writes to; 0 when it is /dev/null (where any
 * number of outputs may go) or cannot be read. */
static int cp_output_stdout_stat(struct stat *out)
{
    struct stat null;
    if (fstat(STDOUT_FILENO, out) != 0)
        return 0;
    if (S_ISCHR(out->st_mode) && stat("/dev/null", &null) == 0 && null.st_rdev == out->st_rdev)
        return 0;
    return 1;
}

int cp_output_is_stdout(const char *path)
{
    struct stat o, p;
    if (!path || !cp_output_stdout_stat(&o) || stat(path, &p) != 0)
        return 0;
    return o.st_dev == p.st_dev && o.st_ino == p.st_ino;
}

int cp_output_stdout_is_input(const char *input)
{
    struct stat i;
    return input && stat(input, &i) == 0 && S_ISREG(i.st_mode) && cp_output_is_stdout(input);
}

int cp_output_refuse_stdout_input(const char *input, const char *what, cp_status *st)
{
    cp_status_set(st, CP_EXIT_USAGE,
                  "standard output is the file '%s' %s: writing there would overwrite it", input,
                  what);
    cp_status_hint(st, "redirect the output to another file, or give -o FILE");
    return CP_EXIT_USAGE;
}

int cp_output_stdout_failed(cp_status *st)
{
    errno = 0;
    int flushed = fflush(stdout) == 0;
    int e = errno;
    if (flushed && !ferror(stdout))
        return CP_EXIT_OK;
    if (e == 0) /* the error came with an earlier write, its errno lost */
        e = EIO;
    if (e == EPIPE) {
        cp_status_set(st, CP_EXIT_PIPE, "standard output was closed by its reader");
        return CP_EXIT_PIPE;
    }
    return cp_output_error(NULL, NULL, e, st);
}

int cp_output_check_page(const char *output, cp_status *st)
{
    int tty = 0;
    if (!output || strcmp(output, "-") == 0 || cp_output_is_stdout(output)) {
        tty = isatty(STDOUT_FILENO);
    } else {
        struct stat sb; /* only a character device is opened to ask (a FIFO's reader would see
                           its end when it is closed) */
        int fd = stat(output, &sb) == 0 && S_ISCHR(sb.st_mode)
                     ? open(output, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
                     : -1;
        tty = fd >= 0 && isatty(fd);
        if (fd >= 0)
            close(fd);
    }
    if (!tty)
        return CP_EXIT_OK;
    return cp_status_usage(st,
                           "write it to a file and open that in a browser: -o report.html (or "
                           "pipe it on: | cat > report.html)",
                           "--format html writes a page of HTML, and %s is a terminal",
                           output && strcmp(output, "-") != 0 ? output : "standard output");
}
