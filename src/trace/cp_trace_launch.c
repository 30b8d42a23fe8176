/* cp_trace_launch.c: starts the traced program with the injection library, forwards the signals
 * sent to coalprobe, and waits for it (the launcher half of coalprobe trace). */
#define _POSIX_C_SOURCE 200809L
#include "cp_trace_launch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cp_trace_raw.h"

#define CP_TRACE_INJECT_NAME "libcoalprobe_inject.so"

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

int cp_trace_find_injection(char *path, size_t n, cp_status *st)
{
    char msg[4400];
    const char *env = getenv("COALPROBE_INJECT_LIBRARY");
    if (env && env[0]) {
        if (access(env, R_OK) != 0) {
            snprintf(msg, sizeof msg, "COALPROBE_INJECT_LIBRARY=%s: %s", env, strerror(errno));
            return cp_trace_fail(st, CP_EXIT_RUNTIME,
                                 "unset it to use the library beside coalprobe", msg);
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
    if ((size_t)snprintf(path, n, "%s/%s", exe, CP_TRACE_INJECT_NAME) >= n)
        return cp_trace_fail(st, CP_EXIT_RUNTIME, NULL, "injection library path too long");
    if (access(path, R_OK) != 0) {
        snprintf(msg, sizeof msg, "%s: %s", path, strerror(errno));
        return cp_trace_fail(st, CP_EXIT_RUNTIME,
                             "build it beside coalprobe (cmake --build builds both), or set "
                             "COALPROBE_INJECT_LIBRARY",
                             msg);
    }
    return CP_EXIT_OK;
}

/* The child being traced and the signal to pass on, for the handler. */
static volatile sig_atomic_t cp_trace_child_pid;
static volatile sig_atomic_t cp_trace_forwarded;

/* SIGINT/SIGTERM reaching coalprobe: a signal from the terminal (SI_KERNEL) reached the program
 * too, as it shares the foreground process group; one sent to coalprobe alone (kill) is passed
 * on. */
static void cp_trace_on_signal(int sig, siginfo_t *info, void *unused)
{
    (void)unused;
    cp_trace_forwarded = sig;
    if (cp_trace_child_pid > 0 && (!info || info->si_code != SI_KERNEL))
        kill((pid_t)cp_trace_child_pid, sig);
}

static double cp_trace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cp_trace_launch(const char *path, char *const argv[], const char *inject_library,
                    const char *raw_dir, cp_trace_child *child, cp_status *st)
{
    memset(child, 0, sizeof *child);
    int report[2]; /* the child writes errno here when exec fails; closed on exec */
    if (pipe(report) != 0)
        return cp_status_set(st, CP_EXIT_RUNTIME, "trace: pipe: %s", strerror(errno));
    fcntl(report[0], F_SETFD, FD_CLOEXEC);
    fcntl(report[1], F_SETFD, FD_CLOEXEC);

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = cp_trace_on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    cp_trace_forwarded = 0;
    cp_trace_child_pid = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    double start = cp_trace_now();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        close(report[0]);
        close(report[1]);
        return cp_status_set(st, CP_EXIT_RUNTIME, "trace: fork: %s", strerror(e));
    }
    if (pid == 0) {
        /* the program gets the signal dispositions coalprobe was given */
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        close(report[0]);
        if (setenv("CUDA_INJECTION64_PATH", inject_library, 1) == 0 &&
            setenv(CP_TRACE_ENV_DIR, raw_dir, 1) == 0)
            execv(path, argv);
        int e = errno;
        ssize_t w = write(report[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
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
    child->wall_seconds = cp_trace_now() - start;
    cp_trace_child_pid = 0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    child->forwarded = cp_trace_forwarded;

    if (got == (ssize_t)sizeof exec_errno)
        return cp_status_set(st, CP_EXIT_RUNTIME, "trace: cannot execute %s: %s", path,
                             strerror(exec_errno));
    if (w < 0)
        return cp_status_set(st, CP_EXIT_RUNTIME, "trace: waitpid: %s", strerror(errno));
    child->started = 1;
    if (WIFEXITED(status)) {
        child->exited = 1;
        child->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        child->signaled = 1;
        child->term_signal = WTERMSIG(status);
    }
    return CP_EXIT_OK;
}
