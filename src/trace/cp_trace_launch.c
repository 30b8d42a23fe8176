/* cp_trace_launch.c: starts the traced program with the injection library, forwards the signals
 * sent to coalprobe, and waits for it and for the processes still writing raw files (the
 * launcher half of coalprobe trace). */
#define _POSIX_C_SOURCE 200809L
#include "cp_trace_launch.h"
#include "cp_trace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "inject/cp_inject.h"

#define CP_TRACE_INJECT_NAME "libcoalprobe_inject.so"
/* where an install puts it, relative to the directory of the installed executable (CMakeLists.txt
 * defines it from the install layout) */
#ifndef CP_INJECT_INSTALL_RELDIR
#define CP_INJECT_INSTALL_RELDIR "../lib/coalprobe"
#endif

/* Checks one candidate path: 0 when it is a regular file the user may execute, else the errno
 * that says why not (EISDIR for a directory, EACCES for no execute permission). */
static int cp_trace_check_executable(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return errno;
    if (S_ISDIR(sb.st_mode))
        return EISDIR;
    if (!S_ISREG(sb.st_mode))
        return EACCES;
    if (access(path, X_OK) != 0)
        return errno;
    return 0;
}

/* Records code, the message and the hint in st and returns code. */
static int cp_trace_fail(cp_status *st, int code, const char *hint, const char *message)
{
    cp_status_set(st, code, "trace: %s", message);
    if (hint)
        cp_status_hint(st, "%s", hint);
    return code;
}

int cp_trace_find_program(const char *name, char *path, size_t n, cp_status *st)
{
    char msg[4400];
    if (!name || !name[0])
        return cp_trace_fail(
            st, CP_EXIT_USAGE,
            "put the program and its arguments after --, e.g. coalprobe trace -- ./app",
            "no program to run");
    if (strchr(name, '/')) {
        int e = cp_trace_check_executable(name);
        if (e != 0) {
            snprintf(msg, sizeof msg, "cannot run %s: %s", name, strerror(e));
            return cp_trace_fail(
                st, CP_EXIT_USAGE,
                e == ENOENT ? "check the path" : "chmod +x it, or name an executable file", msg);
        }
        if ((size_t)snprintf(path, n, "%s", name) >= n)
            return cp_trace_fail(st, CP_EXIT_USAGE, NULL, "program path too long");
        return CP_EXIT_OK;
    }
    const char *search = getenv("PATH");
    if (!search || !search[0])
        search = "/usr/local/bin:/usr/bin:/bin";
    int seen = ENOENT;
    for (const char *p = search;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        char candidate[4096];
        int w = len ? snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, p, name)
                    : snprintf(candidate, sizeof candidate, "./%s", name);
        if (w > 0 && (size_t)w < sizeof candidate) {
            int e = cp_trace_check_executable(candidate);
            if (e == 0) {
                if ((size_t)snprintf(path, n, "%s", candidate) >= n)
                    return cp_trace_fail(st, CP_EXIT_USAGE, NULL, "program path too long");
                return CP_EXIT_OK;
            }
            if (e != ENOENT && e != ENOTDIR)
                seen = e;
        }
        if (!colon)
            break;
        p = colon + 1;
    }
    if (seen == ENOENT) {
        snprintf(msg, sizeof msg, "%s: command not found", name);
        return cp_trace_fail(st, CP_EXIT_USAGE, "check the name, or give its path (./NAME)", msg);
    }
    snprintf(msg, sizeof msg, "cannot run %s: %s", name, strerror(seen));
    return cp_trace_fail(st, CP_EXIT_USAGE, "chmod +x it, or name an executable file", msg);
}

/* Where an install puts the injection library for an executable in directory exe (PREFIX/bin/
 * coalprobe, PREFIX/lib/coalprobe/: CP_INJECT_INSTALL_RELDIR from exe), its "../" taken off the
 * end of exe. */
static void cp_trace_install_dir(const char *exe, char *buf, size_t len)
{
    snprintf(buf, len, "%s", exe);
    const char *rel = CP_INJECT_INSTALL_RELDIR;
    char *slash;
    while (strncmp(rel, "../", 3) == 0 && (slash = strrchr(buf, '/')) && slash != buf) {
        *slash = '\0';
        rel += 3;
    }
    size_t used = strlen(buf);
    snprintf(buf + used, len > used ? len - used : 0, "/%s", rel);
}

int cp_trace_find_injection(char *path, size_t n, cp_status *st)
{
    char msg[4400];
    const char *env = getenv("COALPROBE_INJECT_LIBRARY");
    if (env && env[0]) {
        if (access(env, R_OK) != 0) {
            snprintf(msg, sizeof msg, "COALPROBE_INJECT_LIBRARY=%s: %s", env, strerror(errno));
            return cp_trace_fail(st, CP_EXIT_RUNTIME,
                                 "unset it to use the library installed with coalprobe", msg);
        }
        if ((size_t)snprintf(path, n, "%s", env) >= n)
            return cp_trace_fail(st, CP_EXIT_RUNTIME, NULL, "injection library path too long");
        return CP_EXIT_OK;
    }
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        snprintf(msg, sizeof msg, "cannot find the coalprobe executable: %s", strerror(errno));
        return cp_trace_fail(st, CP_EXIT_RUNTIME, NULL, msg);
    }
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    /* beside the executable (the build tree), then where an install puts it */
    char installed[4096];
    cp_trace_install_dir(exe, installed, sizeof installed);
    const char *dirs[] = {exe, installed};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if ((size_t)snprintf(path, n, "%s/%s", dirs[i], CP_TRACE_INJECT_NAME) >= n)
            return cp_trace_fail(st, CP_EXIT_RUNTIME, NULL, "injection library path too long");
        if (access(path, R_OK) == 0)
            return CP_EXIT_OK;
    }
    snprintf(msg, sizeof msg, "%s is neither in %.2000s (a build tree) nor in %.2000s (an install)",
             CP_TRACE_INJECT_NAME, exe, installed);
    return cp_trace_fail(st, CP_EXIT_RUNTIME,
                         "build it (cmake --build builds it beside coalprobe), install it (cmake "
                         "--install puts it in lib/coalprobe), or set COALPROBE_INJECT_LIBRARY",
                         msg);
}

/* The child being traced and the signal to pass on, for the handler. */
static volatile sig_atomic_t cp_trace_child_pid;
static volatile sig_atomic_t cp_trace_forwarded;
static volatile sig_atomic_t cp_trace_signals; /* SIGINT/SIGTERM received, counted */

/* SIGINT/SIGTERM reaching coalprobe: a signal from the terminal (SI_KERNEL) reached the program
 * too, as it shares the foreground process group; one sent to coalprobe alone (kill) is passed
 * on. */
static void cp_trace_on_signal(int sig, siginfo_t *info, void *unused)
{
    (void)unused;
    cp_trace_forwarded = sig;
    cp_trace_signals++;
    if (cp_trace_child_pid > 0 && (!info || info->si_code != SI_KERNEL))
        kill((pid_t)cp_trace_child_pid, sig);
}

/* The pids of the raw files in dir whose lock a process holds: the first n_named into pids;
 * returns how many there are. */
static size_t cp_trace_scan_writers(const char *dir, long *pids, size_t n_named)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t busy = 0, prefix = strlen(CP_TRACE_RAW_PREFIX);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!cp_trace_is_raw_tsv_name(e->d_name))
            continue;
        char path[8192];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path ||
            !cp_trace_lock_busy(path))
            continue;
        if (busy < n_named)
            pids[busy] = strtol(e->d_name + prefix, NULL, 10);
        busy++;
    }
    closedir(d);
    return busy;
}

/* "pid 12, 34 and 2 more" for a message. */
static void cp_trace_pid_list(char *buf, size_t n, const long *pids, size_t count)
{
    size_t named = count < CP_TRACE_WRITERS_NAMED ? count : CP_TRACE_WRITERS_NAMED;
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < named && used < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%ld", i ? ", " : "pid ", pids[i]);
        used += w > 0 ? (size_t)w : 0;
    }
    if (count > named && used < n)
        snprintf(buf + used, n - used, " and %zu more", count - named);
}

void cp_trace_wait_writers(const char *raw_dir, cp_trace_child *child)
{
    double start = cp_phase_now();
    sig_atomic_t signals = cp_trace_signals;
    int announced = 0;
    char pids[600];
    for (long delay_ns = 1000000;;) {
        child->nwriting = cp_trace_scan_writers(raw_dir, child->writing, CP_TRACE_WRITERS_NAMED);
        child->waited = cp_phase_now() - start;
        if (child->nwriting == 0)
            return;
        if (cp_trace_signals != signals) {
            child->wait_ended_by_signal = 1;
            break;
        }
        if (child->waited >= child->wait_bound)
            break;
        if (!announced && child->waited >= 1.0) {
            cp_trace_pid_list(pids, sizeof pids, child->writing, child->nwriting);
            fprintf(stderr,
                    "coalprobe: trace: the program has ended; waiting up to %g s for %zu "
                    "process%s still writing raw files (%s); COALPROBE_TRACE_WAIT sets the "
                    "bound\n",
                    child->wait_bound, child->nwriting, child->nwriting == 1 ? "" : "es", pids);
            announced = 1;
        }
        double left = child->wait_bound - child->waited;
        long ns = left * 1e9 < (double)delay_ns ? (long)(left * 1e9) + 1 : delay_ns;
        struct timespec pause = {ns / 1000000000L, ns % 1000000000L};
        nanosleep(&pause, NULL); /* a signal cuts it short, and is seen above */
        if (delay_ns < 50000000)
            delay_ns *= 2;
    }
    cp_trace_pid_list(pids, sizeof pids, child->writing, child->nwriting);
    fprintf(stderr,
            "coalprobe: trace: %zu process%s still writing raw files after %.1f s (%s): "
            "reported as far as written, marked incomplete\n",
            child->nwriting, child->nwriting == 1 ? "" : "es", child->waited, pids);
    fprintf(stderr, "hint: %s\n",
            child->wait_ended_by_signal
                ? "the wait was interrupted; let the processes end, or keep their raw files "
                  "with --raw-dir and report them later with --from-raw"
                : "set COALPROBE_TRACE_WAIT to a longer bound in seconds, or keep the raw files "
                  "with --raw-dir and report them later with --from-raw");
}

void cp_trace_launch_notes(const cp_trace_child *child, cp_trace *t)
{
    if (child->replaced_injection[0])
        cp_trace_add_note(t,
                          "CUDA_INJECTION64_PATH=%s was replaced by coalprobe's injection library "
                          "for this run: the program ran without it",
                          child->replaced_injection);
    if (child->nwriting) {
        char pids[600];
        cp_trace_pid_list(pids, sizeof pids, child->writing, child->nwriting);
        cp_trace_add_note(t,
                          "%zu process%s (%s) still wrote raw files when this report was made, "
                          "%.1f s after the program ended%s: their counts are as far as written",
                          child->nwriting, child->nwriting == 1 ? "" : "es", pids, child->waited,
                          child->wait_ended_by_signal ? " (the wait was interrupted)"
                                                      : " (COALPROBE_TRACE_WAIT)");
    }
}

/* COALPROBE_TRACE_WAIT: seconds from 0 to CP_TRACE_WAIT_MAX, else the default. */
static int cp_trace_wait_bound(double *bound, cp_status *st)
{
    const char *env = getenv("COALPROBE_TRACE_WAIT");
    *bound = CP_TRACE_WAIT_DEFAULT;
    if (!env || !env[0])
        return CP_EXIT_OK;
    double v = -1;
    if (cp_number_seconds(env, &v) != CP_NUMBER_OK || v > CP_TRACE_WAIT_MAX) {
        cp_status_set(st, CP_EXIT_USAGE,
                      "trace: COALPROBE_TRACE_WAIT='%s' is not a decimal number of seconds from 0 "
                      "to %g",
                      env, CP_TRACE_WAIT_MAX);
        cp_status_hint(st,
                       "it bounds the wait for processes still writing raw files after the "
                       "program ended; unset it for %g s",
                       CP_TRACE_WAIT_DEFAULT);
        return CP_EXIT_USAGE;
    }
    *bound = v;
    return CP_EXIT_OK;
}

/* A CUDA_INJECTION64_PATH of the user's own is replaced for this run: said on stderr and kept
 * in child->replaced_injection. */
static void cp_trace_note_injection(const char *inject_library, cp_trace_child *child)
{
    const char *own = getenv("CUDA_INJECTION64_PATH");
    if (own && own[0] && strcmp(own, inject_library) != 0) {
        snprintf(child->replaced_injection, sizeof child->replaced_injection, "%s", own);
        fputs("coalprobe: note: CUDA_INJECTION64_PATH=", stderr);
        cp_text_put_printable(stderr, own);
        fputs(" is replaced by coalprobe's injection library for this run\n", stderr);
    }
}

void cp_trace_signals_set(const struct sigaction *sa, struct sigaction old[2])
{
    sigaction(SIGINT, sa, &old[0]);
    sigaction(SIGTERM, sa, &old[1]);
}

void cp_trace_signals_restore(const struct sigaction old[2])
{
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGTERM, &old[1], NULL);
}

/* SIGINT and SIGTERM are forwarded to the program while it runs; old[2] keeps the dispositions
 * coalprobe was given. */
static void cp_trace_forward_signals(struct sigaction old[2])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = cp_trace_on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    cp_trace_forwarded = 0;
    cp_trace_child_pid = 0;
    cp_trace_signals_set(&sa, old);
}

/* In the forked child: runs the program with the injection library, or writes errno to
 * report[1] when it cannot. */
static _Noreturn void cp_trace_exec_child(const char *path, char *const argv[],
                                          const char *inject_library, const char *raw_dir,
                                          const int report[2], const struct sigaction old[2])
{
    /* the program gets the signal dispositions coalprobe was given */
    cp_trace_signals_restore(old);
    close(report[0]);
    if (setenv("CUDA_INJECTION64_PATH", inject_library, 1) == 0 &&
        setenv(CP_TRACE_ENV_DIR, raw_dir, 1) == 0)
        execv(path, argv);
    int e = errno;
    ssize_t w = write(report[1], &e, sizeof e);
    (void)w;
    _exit(127);
}

/* How the program ended, from waitpid's status. */
static void cp_trace_child_status(cp_trace_child *child, int status)
{
    if (WIFEXITED(status)) {
        child->exited = 1;
        child->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        child->signaled = 1;
        child->term_signal = WTERMSIG(status);
    }
}

int cp_trace_launch(const char *path, char *const argv[], const char *inject_library,
                    const char *raw_dir, cp_trace_child *child, cp_status *st)
{
    memset(child, 0, sizeof *child);
    CP_TRY(cp_trace_wait_bound(&child->wait_bound, st));
    cp_trace_note_injection(inject_library, child);
    int report[2]; /* the child writes errno here when exec fails; closed on exec */
    if (pipe(report) != 0)
        return cp_status_set(st, CP_EXIT_RUNTIME, "trace: pipe: %s", strerror(errno));
    fcntl(report[0], F_SETFD, FD_CLOEXEC);
    fcntl(report[1], F_SETFD, FD_CLOEXEC);

    struct sigaction old[2];
    cp_trace_forward_signals(old);

    double start = cp_phase_now();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        cp_trace_signals_restore(old);
        close(report[0]);
        close(report[1]);
        return cp_status_set(st, CP_EXIT_RUNTIME, "trace: fork: %s", strerror(e));
    }
    if (pid == 0)
        cp_trace_exec_child(path, argv, inject_library, raw_dir, report, old);
    cp_trace_child_pid = pid;
    close(report[1]);
    int exec_errno = 0;
    ssize_t got;
    do {
        got = read(report[0], &exec_errno, sizeof exec_errno);
    } while (got < 0 && errno == EINTR);
    close(report[0]);

    int status = 0;
    pid_t w;
    do {
        w = waitpid(pid, &status, 0);
    } while (w < 0 && errno == EINTR);
    child->wall_seconds = cp_phase_now() - start;
    cp_trace_child_pid = 0;
    child->forwarded = cp_trace_forwarded;
    /* processes of the program that outlive it and still write: SIGINT or SIGTERM ends the wait */
    if (w == pid && got != (ssize_t)sizeof exec_errno)
        cp_trace_wait_writers(raw_dir, child);
    cp_trace_signals_restore(old);

    if (got == (ssize_t)sizeof exec_errno)
        return cp_status_set(st, CP_EXIT_RUNTIME, "trace: cannot execute %s: %s", path,
                             strerror(exec_errno));
    if (w < 0)
        return cp_status_set(st, CP_EXIT_RUNTIME, "trace: waitpid: %s", strerror(errno));
    child->started = 1;
    cp_trace_child_status(child, status);
    return CP_EXIT_OK;
}
