/* cp_sass.c: the SASS of coalprobe's own kernels, read with cuobjdump from this executable. */
#define _GNU_SOURCE
#include "cp_sass.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int cp_sass_line_opcode(const char *line, char *opcode, size_t len)
{
    const char *p = strstr(line, "*/");
    if (!p || !len)
        return 0;
    p += 2;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '@') { /* a predicate: @P0, @!PT */
        while (*p && *p != ' ')
            p++;
        while (*p == ' ')
            p++;
    }
    size_t n = 0;
    while (p[n] && p[n] != ' ' && p[n] != ';' && p[n] != '\t')
        n++;
    if (n == 0 || !(p[0] >= 'A' && p[0] <= 'Z'))
        return 0;
    snprintf(opcode, len, "%.*s", (int)n, p);
    return 1;
}

/* Starts cuobjdump with args, its standard output on *out (standard error discarded). */
static int cp_sass_spawn(char *const args[], pid_t *pid, FILE **out)
{
    int fd[2];
    if (pipe(fd) != 0)
        return errno;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    int rc = posix_spawnp(pid, "cuobjdump", &fa, NULL, args, environ);
    if (rc == ENOENT)
        rc = posix_spawn(pid, "/usr/local/cuda/bin/cuobjdump", &fa, NULL, args, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc != 0) {
        close(fd[0]);
        return rc;
    }
    *out = fdopen(fd[0], "r");
    if (!*out) {
        close(fd[0]);
        kill(*pid, SIGKILL);
        waitpid(*pid, NULL, 0);
        return ENOMEM;
    }
    return 0;
}

int cp_sass_find_opcode(int arch, const char *function,
                        int (*pick)(const char *opcode, const char *line), char *opcode, size_t len,
                        char *why, size_t wlen)
{
    char archarg[32], exe[4096];
    snprintf(archarg, sizeof archarg, "sm_%d", arch);
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(why, wlen, "cannot name this executable (/proc/self/exe)");
        return 0;
    }
    exe[n] = '\0';
    char a0[] = "cuobjdump", a1[] = "-sass", a2[] = "-arch", a4[] = "-fun", fun[512];
    snprintf(fun, sizeof fun, "%s", function);
    char *args[] = {a0, a1, a2, archarg, a4, fun, exe, NULL};
    pid_t pid;
    FILE *out = NULL;
    int rc = cp_sass_spawn(args, &pid, &out);
    if (rc != 0) {
        snprintf(why, wlen, "cuobjdump could not run (%s): install the CUDA Toolkit's cuobjdump",
                 strerror(rc));
        return 0;
    }
    char line[1024], op[64];
    int found = 0, lines = 0;
    while (fgets(line, sizeof line, out)) {
        lines++;
        if (!found && cp_sass_line_opcode(line, op, sizeof op) && pick(op, line)) {
            snprintf(opcode, len, "%s", op);
            found = 1; /* read on: cuobjdump must not meet a closed pipe */
        }
    }
    fclose(out);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!found)
        snprintf(why, wlen, "%s",
                 lines ? "no such instruction in its SASS"
                       : "cuobjdump found no SASS of it for this architecture");
    return found;
}
