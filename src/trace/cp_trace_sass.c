/* cp_trace_sass.c: SASS opcodes for the traced instructions: runs nvdisasm (when it is on PATH)
 * on each cubin the injection library saved and maps every function's PC offsets to opcodes.
 * Optional: without nvdisasm the report has no opcodes and says why once. Only cubins with a
 * counted instruction are read, several at once (a PyTorch module's listing takes seconds).
 * COALPROBE_NVDISASM names another nvdisasm; set and empty, none is run (for reports that must not
 * depend on the machine, e.g. the tests' goldens). Each run is bounded in time and in the bytes of
 * listing read, and stops when the report side is interrupted (cp_trace.stop). A listing nvdisasm
 * gave completely is kept in a cache (cp_trace_sass_cache.c), read instead of running it again.
 * One file just over 800 lines: running nvdisasm, reading its listing and mapping PCs share one
 * run state per cubin. */
#define _GNU_SOURCE /* pipe2: nvdisasm's pipe closed on exec from its creation (threads fork) */
#include "cp_trace_report.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cp_trace_launch.h"
#include "cp_trace_sass_cache.h"

/* The most bytes of listing read from one nvdisasm run (COALPROBE_NVDISASM_MAX_BYTES). */
#define CP_TRACE_SASS_MAX_OUTPUT ((size_t)256 << 20)
/* Its time limit: this many seconds, plus CP_TRACE_SASS_PER_MB_S per MB of its cubin
 * (COALPROBE_NVDISASM_TIMEOUT sets one limit for every cubin). */
#define CP_TRACE_SASS_BASE_S 10.0
#define CP_TRACE_SASS_PER_MB_S 5.0
/* The most nvdisasm processes at once. */
#define CP_TRACE_SASS_WIDTH 16

/* ---- the parser --------------------------------------------------------------------------- */

static int cp_trace_sass_push(cp_trace_sass_line **lines, size_t *n, size_t *cap, char *function,
                              int owner, uint32_t pc, const char *op, size_t oplen)
{
    if (*n == *cap) {
        size_t want = *cap ? *cap * 2 : 256;
        cp_trace_sass_line *grown = realloc(*lines, want * sizeof *grown);
        if (!grown)
            return -1;
        *lines = grown;
        *cap = want;
    }
    cp_trace_sass_line *l = &(*lines)[*n];
    l->function = function;
    l->owner = owner;
    l->opcode = malloc(oplen + 1);
    l->pc = pc;
    if (!l->opcode)
        return -1;
    memcpy(l->opcode, op, oplen);
    l->opcode[oplen] = '\0';
    (*n)++;
    return 0;
}

/* The name after ".section " (s: past ".section"): the function of a ".text.NAME" section, a
 * new string in *function (NULL for another section); -1 when out of memory. */
static int cp_trace_sass_section(const char *s, const char *stop, char **function)
{
    static const char text_prefix[] = ".text.";
    *function = NULL;
    while (s < stop && (*s == ' ' || *s == '\t'))
        s++;
    size_t name = strcspn(s, ", \t\n");
    if (s + name > stop)
        name = (size_t)(stop - s);
    if (name > sizeof text_prefix - 1 && strncmp(s, text_prefix, sizeof text_prefix - 1) == 0) {
        size_t fl = name - (sizeof text_prefix - 1);
        *function = malloc(fl + 1);
        if (!*function)
            return -1;
        memcpy(*function, s + sizeof text_prefix - 1, fl);
        (*function)[fl] = '\0';
    }
    return 0;
}

/* An instruction line of the listing, s to stop (s at its offset comment): 1 with its pc and
 * opcode (op, oplen), 0 when the line is something else. */
static int cp_trace_sass_instruction(const char *s, const char *stop, uint32_t *pc_out,
                                     const char **op, size_t *oplen_out)
{
    /* offset comment, then [{] [@predicate] OPCODE operands ; */
    const char *h = s + 2;
    uint32_t pc = 0;
    size_t digits = 0;
    int ok = 1;
    for (; h < stop && *h != '*'; h++, digits++) {
        int v = *h >= '0' && *h <= '9'   ? *h - '0'
                : *h >= 'a' && *h <= 'f' ? *h - 'a' + 10
                : *h >= 'A' && *h <= 'F' ? *h - 'A' + 10
                                         : -1;
        if (v < 0 || digits >= 8) {
            ok = 0;
            break;
        }
        pc = pc * 16 + (uint32_t)v;
    }
    if (ok && digits > 0 && h + 1 < stop && h[0] == '*' && h[1] == '/') {
        s = h + 2;
        while (s < stop && (*s == ' ' || *s == '\t' || *s == '{'))
            s++;
        if (s < stop && *s == '@') { /* a predicate: @P0, @!PT */
            while (s < stop && *s != ' ' && *s != '\t')
                s++;
            while (s < stop && (*s == ' ' || *s == '\t'))
                s++;
        }
        size_t oplen = 0;
        while (s + oplen < stop && s[oplen] != ' ' && s[oplen] != '\t' && s[oplen] != ';' &&
               s[oplen] != '}')
            oplen++;
        *pc_out = pc;
        *op = s;
        *oplen_out = oplen;
        return oplen > 0;
    }
    return 0;
}

int cp_trace_sass_parse(const char *text, cp_trace_sass_line **lines, size_t *n, cp_status *st)
{
    *lines = NULL;
    *n = 0;
    size_t cap = 0;
    char *function = NULL; /* the .text section being read */
    int owned = 0;         /* a line owns function */
    int rc = CP_EXIT_OK;
    for (const char *line = text; line && *line && rc == CP_EXIT_OK;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *s = line, *stop = line + len;
        while (s < stop && (*s == ' ' || *s == '\t'))
            s++;
        static const char section[] = ".section";
        if ((size_t)(stop - s) > sizeof section && strncmp(s, section, sizeof section - 1) == 0 &&
            (s[sizeof section - 1] == ' ' || s[sizeof section - 1] == '\t')) {
            if (!owned)
                free(function);
            function = NULL;
            owned = 0;
            if (cp_trace_sass_section(s + sizeof section - 1, stop, &function) != 0) {
                rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading nvdisasm");
                break;
            }
        } else if (function && stop - s > 4 && s[0] == '/' && s[1] == '*') {
            uint32_t pc = 0;
            const char *op = NULL;
            size_t oplen = 0;
            if (cp_trace_sass_instruction(s, stop, &pc, &op, &oplen)) {
                if (cp_trace_sass_push(lines, n, &cap, function, !owned, pc, op, oplen) != 0)
                    rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading nvdisasm");
                else
                    owned = 1;
            }
        }
        line = end ? end + 1 : NULL;
    }
    if (!owned)
        free(function);
    if (rc != CP_EXIT_OK) {
        cp_trace_sass_free(*lines, *n);
        *lines = NULL;
        *n = 0;
    }
    return rc;
}

void cp_trace_sass_free(cp_trace_sass_line *lines, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (lines[i].owner)
            free(lines[i].function);
        free(lines[i].opcode);
    }
    free(lines);
}

/* ---- the functions of a cubin ------------------------------------------------------------- */

static uint64_t cp_trace_sass_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t cp_trace_sass_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t cp_trace_sass_u16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* 1 when [off, off + len) lies inside size bytes. */
static int cp_trace_sass_inside(uint64_t off, uint64_t len, size_t size)
{
    return off <= size && len <= size - off;
}

int cp_trace_sass_function_list(const unsigned char *elf, size_t size, const char *const *names,
                                size_t n, char *list, size_t len)
{
    enum { EHDR = 64, SHDR = 64, SYM = 24, SHT_SYMTAB = 2 };
    if (len == 0 || size < EHDR || memcmp(elf, "\177ELF", 4) != 0 || elf[4] != 2 || elf[5] != 1)
        return -1; /* 64-bit, little-endian */
    list[0] = '\0';
    uint64_t shoff = cp_trace_sass_u64(elf + 0x28);
    uint16_t shentsize = cp_trace_sass_u16(elf + 0x3A), shnum = cp_trace_sass_u16(elf + 0x3C);
    if (shentsize < SHDR || !cp_trace_sass_inside(shoff, (uint64_t)shnum * shentsize, size))
        return -1;
    size_t found = 0, used = 0;
    for (uint16_t i = 0; i < shnum; i++) {
        const unsigned char *sh = elf + shoff + (uint64_t)i * shentsize;
        if (cp_trace_sass_u32(sh + 4) != SHT_SYMTAB)
            continue;
        uint64_t off = cp_trace_sass_u64(sh + 0x18), bytes = cp_trace_sass_u64(sh + 0x20);
        uint32_t link = cp_trace_sass_u32(sh + 0x28);
        if (!cp_trace_sass_inside(off, bytes, size) || link >= shnum)
            return -1;
        const unsigned char *strsh = elf + shoff + (uint64_t)link * shentsize;
        uint64_t stroff = cp_trace_sass_u64(strsh + 0x18),
                 strbytes = cp_trace_sass_u64(strsh + 0x20);
        if (!cp_trace_sass_inside(stroff, strbytes, size))
            return -1;
        for (uint64_t k = 0; k < bytes / SYM; k++) {
            uint32_t name = cp_trace_sass_u32(elf + off + k * SYM);
            if (name >= strbytes)
                continue;
            const char *sym = (const char *)elf + stroff + name;
            size_t room = (size_t)(strbytes - name);
            for (size_t j = 0; j < n; j++) {
                size_t l = strlen(names[j]);
                if (l >= room || memcmp(sym, names[j], l + 1) != 0)
                    continue;
                int w = snprintf(list + used, len - used, "%s%" PRIu64, used ? "," : "", k);
                if (w < 0 || (size_t)w >= len - used)
                    return -1;
                used += (size_t)w;
                found++;
                break;
            }
        }
    }
    return n > 0 && found >= n ? 0 : -1;
}

/* ---- running nvdisasm ----------------------------------------------------------------------- */

/* One nvdisasm run: its cubin, the process (its own process group) and its listing, read from
 * a pipe. */
typedef struct cp_trace_sass_job {
    uint32_t crc;
    char *cubin;          /* DIR/FILE */
    char functions[4096]; /* nvdisasm -fun: the symbols of the counted functions, or "" */
    off_t size;           /* the cubin's bytes */
    int cached;           /* its listing came from the cache: nvdisasm did not run */
    double limit;         /* seconds it may run */
    double deadline;      /* cp_phase_now() past which it is killed */
    pid_t pid;            /* running or not yet reaped: > 0 */
    int fd;               /* the read end of its standard output, -1 once closed */
    char *text;           /* the listing read so far (NUL-terminated) */
    size_t len, cap;
    int done;      /* finished: text is the whole listing, or why says what went wrong */
    char why[256]; /* why there is no listing */
} cp_trace_sass_job;

/* The limits of one run: COALPROBE_NVDISASM_TIMEOUT seconds (or the default, scaled to the
 * cubin's size) and COALPROBE_NVDISASM_MAX_BYTES of listing. */
typedef struct cp_trace_sass_limits {
    double timeout; /* > 0: the same for every cubin; 0: the default */
    size_t max_bytes;
} cp_trace_sass_limits;

/* Reads the limits from the environment; a bad value is noted (t not NULL) and the default
 * used. */
static void cp_trace_sass_read_limits(cp_trace *t, cp_trace_sass_limits *l)
{
    l->timeout = 0;
    l->max_bytes = CP_TRACE_SASS_MAX_OUTPUT;
    const char *v = getenv("COALPROBE_NVDISASM_TIMEOUT");
    if (v && v[0]) {
        double d = 0;
        if (cp_number_seconds(v, &d) == CP_NUMBER_OK && d > 0)
            l->timeout = d;
        else if (t)
            cp_trace_add_note(t,
                              "COALPROBE_NVDISASM_TIMEOUT=%s is not a number of seconds above 0: "
                              "the default limit is used",
                              v);
    }
    v = getenv("COALPROBE_NVDISASM_MAX_BYTES");
    if (v && v[0]) {
        char *end = NULL;
        errno = 0;
        unsigned long long b = (v[0] >= '0' && v[0] <= '9') ? strtoull(v, &end, 10) : 0;
        if (end && !*end && !errno && b > 0 && b <= SIZE_MAX / 2)
            l->max_bytes = (size_t)b;
        else if (t)
            cp_trace_add_note(t,
                              "COALPROBE_NVDISASM_MAX_BYTES=%s is not a number of bytes above "
                              "0: the default cap is used",
                              v);
    }
}

/* The seconds nvdisasm may take on a cubin of size bytes: CP_TRACE_SASS_BASE_S plus
 * CP_TRACE_SASS_PER_MB_S per MB (begun), unless COALPROBE_NVDISASM_TIMEOUT says otherwise. */
static double cp_trace_sass_limit(const cp_trace_sass_limits *l, off_t size)
{
    if (l->timeout > 0)
        return l->timeout;
    double mb = ceil((double)(size > 0 ? size : 0) / 1e6);
    return CP_TRACE_SASS_BASE_S + CP_TRACE_SASS_PER_MB_S * mb;
}

/* Starts `nvdisasm -c -ndf [-fun LIST] CUBIN` in a process group of its own, its standard output
 * a pipe; 0, or -1 with why (then j is done). */
static int cp_trace_sass_start(const char *nvdisasm, cp_trace_sass_job *j)
{
    int p[2];
    /* no other process inherits this pipe (another nvdisasm, the traced program started beside
     * the prefetch's thread): its end of file must come when this nvdisasm ends */
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(j->why, sizeof j->why, "pipe: %s", strerror(errno));
        j->done = 1;
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(j->why, sizeof j->why, "fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        j->done = 1;
        return -1;
    }
    if (pid == 0) {
        (void)setpgid(0, 0); /* its own group: a time limit stops its children too */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        sigset_t none; /* forked by the prefetch's thread, which blocks every signal */
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, STDIN_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        dup2(p[1], STDOUT_FILENO);
        /* -ndf: no dataflow analysis (branch-target labels), which takes most of its time */
        char *argv[] = {
            (char *)"nvdisasm", (char *)"-c", (char *)"-ndf", j->cubin, NULL, NULL, NULL};
        if (j->functions[0]) { /* only the counted functions: a module can hold thousands */
            argv[3] = (char *)"-fun";
            argv[4] = j->functions;
            argv[5] = j->cubin;
        }
        execv(nvdisasm, argv);
        _exit(127);
    }
    (void)setpgid(pid, pid); /* either side may run first */
    close(p[1]);
    j->pid = pid;
    j->fd = p[0];
    j->deadline = cp_phase_now() + j->limit;
    return 0;
}

/* Kills j's process group and reaps it; why says why (unless it already does). */
static void cp_trace_sass_kill(cp_trace_sass_job *j, const char *why)
{
    if (j->pid > 0) {
        (void)kill(-j->pid, SIGKILL);
        (void)kill(j->pid, SIGKILL); /* in case it had not joined its group yet */
        while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        j->pid = 0;
    }
    if (j->fd >= 0)
        close(j->fd);
    j->fd = -1;
    if (!j->why[0])
        snprintf(j->why, sizeof j->why, "%s", why);
    j->done = 1;
}

/* Reads what j's pipe holds; at the cap, the run is killed. */
static void cp_trace_sass_read(cp_trace_sass_job *j, const cp_trace_sass_limits *l)
{
    if (j->cap - j->len < 65536 + 1) {
        size_t want = j->cap ? 2 * j->cap : 1u << 20;
        char *grown = realloc(j->text, want);
        if (!grown) {
            cp_trace_sass_kill(j, "out of memory for its listing");
            return;
        }
        j->text = grown;
        j->cap = want;
    }
    ssize_t got = read(j->fd, j->text + j->len, 65536);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (got <= 0) { /* end of file (or a read error): now wait for the process */
        close(j->fd);
        j->fd = -1;
        return;
    }
    j->len += (size_t)got;
    j->text[j->len] = '\0';
    if (j->len > l->max_bytes) {
        char why[256];
        snprintf(why, sizeof why,
                 "its listing passed the cap of %zu bytes (COALPROBE_NVDISASM_MAX_BYTES) and it "
                 "was stopped",
                 l->max_bytes);
        cp_trace_sass_kill(j, why);
    }
}

/* Reaps j once its output has ended; done when it has. */
static void cp_trace_sass_reap(cp_trace_sass_job *j)
{
    int status = 0;
    pid_t got = waitpid(j->pid, &status, WNOHANG);
    if (got == 0 || (got < 0 && errno == EINTR))
        return;
    j->pid = 0;
    j->done = 1;
    if (got < 0)
        snprintf(j->why, sizeof j->why, "waitpid: %s", strerror(errno));
    else if (!WIFEXITED(status))
        snprintf(j->why, sizeof j->why, "it was killed by signal %d", WTERMSIG(status));
    else if (WEXITSTATUS(status) != 0)
        snprintf(j->why, sizeof j->why, "it exited with status %d", WEXITSTATUS(status));
    else if (!j->text)
        j->text = calloc(1, 1); /* an empty listing */
}

/* Runs jobs[0..n) (started already or done) to their end: reads their listings, kills those
 * past their time limit or the cap, and every one when *stop is set (then returns 1). */
static int cp_trace_sass_wait(cp_trace_sass_job *jobs, size_t n, const cp_trace_sass_limits *l,
                              const volatile sig_atomic_t *stop)
{
    struct pollfd fds[CP_TRACE_SASS_WIDTH];
    size_t owner[CP_TRACE_SASS_WIDTH];
    for (;;) {
        if (stop && *stop) {
            for (size_t i = 0; i < n; i++)
                if (!jobs[i].done)
                    cp_trace_sass_kill(&jobs[i], "coalprobe was interrupted");
            return 1;
        }
        double now = cp_phase_now(), next = now + 0.1;
        size_t nfds = 0, running = 0;
        for (size_t i = 0; i < n; i++) {
            cp_trace_sass_job *j = &jobs[i];
            if (j->done)
                continue;
            if (now >= j->deadline) {
                char why[256];
                snprintf(why, sizeof why,
                         "it ran past its time limit of %.0f s (COALPROBE_NVDISASM_TIMEOUT) and "
                         "was stopped",
                         j->limit);
                cp_trace_sass_kill(j, why);
                continue;
            }
            if (j->fd < 0) {
                cp_trace_sass_reap(j);
                if (j->done)
                    continue;
            } else {
                fds[nfds].fd = j->fd;
                fds[nfds].events = POLLIN;
                fds[nfds].revents = 0;
                owner[nfds++] = i;
            }
            running++;
            if (j->fd >= 0 && j->deadline < next)
                next = j->deadline;
        }
        if (running == 0)
            return 0;
        double wait_ms = (next - now) * 1000;
        int r = poll(fds, nfds, wait_ms < 1 ? 1 : wait_ms > 100 ? 100 : (int)wait_ms);
        if (r <= 0)
            continue; /* a signal (EINTR) or the time: looked at above */
        for (size_t k = 0; k < nfds; k++)
            if (fds[k].revents)
                cp_trace_sass_read(&jobs[owner[k]], l);
    }
}

/* Processors to run nvdisasm on, one cubin each. */
static size_t cp_trace_sass_parallel(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > CP_TRACE_SASS_WIDTH ? CP_TRACE_SASS_WIDTH : (size_t)n;
}

static int cp_trace_sass_order(const void *a, const void *b)
{
    const cp_trace_sass_line *x = a, *y = b;
    int c = strcmp(x->function, y->function);
    return c ? c : (x->pc > y->pc) - (x->pc < y->pc);
}

static const cp_trace_sass_line *cp_trace_sass_find(const cp_trace_sass_line *lines, size_t n,
                                                    const char *function, uint32_t pc)
{
    cp_trace_sass_line key = {(char *)function, pc, NULL, 0};
    return bsearch(&key, lines, n, sizeof *lines, cp_trace_sass_order);
}

/* Gives the opcodes of one cubin's listing to every instruction of that cubin. */
static int cp_trace_sass_apply(cp_trace *t, uint32_t crc, cp_trace_sass_line *lines, size_t n,
                               size_t *given)
{
    if (n == 0)
        return 0; /* a listing without instructions */
    qsort(lines, n, sizeof *lines, cp_trace_sass_order);
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t k = 0; k < t->procs[p].nkernels; k++) {
            cp_trace_kernel *kk = &t->procs[p].kernels[k];
            if (!kk->has_crc || kk->crc != crc)
                continue;
            for (size_t i = 0; i < kk->ninstrs; i++) {
                const cp_trace_sass_line *l =
                    cp_trace_sass_find(lines, n, kk->function, kk->instrs[i].pc);
                if (!l || kk->instrs[i].opcode)
                    continue;
                kk->instrs[i].opcode = strdup(l->opcode);
                if (!kk->instrs[i].opcode)
                    return -1;
                (*given)++;
            }
        }
    return 0;
}

/* 1 when kernel k has an instruction that counted something. */
static int cp_trace_sass_counted(const cp_trace_kernel *k)
{
    for (size_t i = 0; i < k->ninstrs; i++)
        for (int m = 0; m < CP_TRACE_NMETRICS; m++)
            if (k->instrs[i].counts.value[m] > 0)
                return 1;
    return 0;
}

/* j->functions: the symbol indices of the counted functions of j's cubin, or "" (the whole
 * cubin) when they cannot be told. 0 when none of its instructions counted anything: the
 * cubin then gets no opcodes, and its listing is not worth its time. */
static int cp_trace_sass_functions(const cp_trace *t, cp_trace_sass_job *j)
{
    j->functions[0] = '\0';
    size_t n = 0, cap = 0;
    const char **names = NULL;
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t k = 0; k < t->procs[p].nkernels; k++) {
            const cp_trace_kernel *kk = &t->procs[p].kernels[k];
            if (!kk->has_crc || kk->crc != j->crc || !kk->function || !cp_trace_sass_counted(kk))
                continue;
            int seen = 0;
            for (size_t i = 0; i < n && !seen; i++)
                seen = strcmp(names[i], kk->function) == 0;
            if (seen)
                continue;
            if (n == cap) {
                size_t want = cap ? 2 * cap : 16;
                const char **grown = realloc(names, want * sizeof *grown);
                if (!grown) {
                    free(names);
                    return 1; /* the whole cubin */
                }
                names = grown;
                cap = want;
            }
            names[n++] = kk->function;
        }
    size_t size = 0;
    unsigned char *elf = n ? (unsigned char *)cp_text_read_file(j->cubin, &size) : NULL;
    if (!elf ||
        cp_trace_sass_function_list(elf, size, names, n, j->functions, sizeof j->functions) != 0)
        j->functions[0] = '\0';
    free(elf);
    free(names);
    return n > 0;
}

int cp_trace_sass_tool(char *nvdisasm, size_t size)
{
    const char *chosen = getenv("COALPROBE_NVDISASM");
    if (chosen && !chosen[0])
        return -1;
    cp_status ignored;
    cp_status_clear(&ignored);
    return cp_trace_find_program(chosen ? chosen : "nvdisasm", nvdisasm, size, &ignored) ==
                   CP_EXIT_OK
               ? 0
               : -1;
}

int cp_trace_sass_prefetch(const char *nvdisasm, cp_trace_sass_cache *cache, uint32_t crc,
                           const char *path, const volatile sig_atomic_t *stop)
{
    cp_trace_sass_job j;
    memset(&j, 0, sizeof j);
    j.fd = -1;
    j.crc = crc;
    j.cubin = (char *)path;
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return -1;
    j.size = sb.st_size;
    char *have = cp_trace_sass_cache_get(cache, crc, "", j.size, &j.len);
    if (have) { /* an earlier trace's */
        free(have);
        return 0;
    }
    cp_trace_sass_limits limits;
    cp_trace_sass_read_limits(NULL, &limits); /* the report notes a bad value */
    j.limit = cp_trace_sass_limit(&limits, j.size);
    int rc = -1;
    if (cp_trace_sass_start(nvdisasm, &j) == 0 && !cp_trace_sass_wait(&j, 1, &limits, stop) &&
        j.text && !j.why[0]) {
        cp_trace_sass_cache_put(cache, crc, "", j.size, j.text, j.len);
        rc = 0;
    }
    free(j.text);
    return rc;
}

/* The nvdisasm to run, into nvdisasm[size]: 0, or -1 with a note saying why there is none. */
static int cp_trace_sass_nvdisasm(cp_trace *t, char *nvdisasm, size_t size)
{
    if (cp_trace_sass_tool(nvdisasm, size) == 0)
        return 0;
    /* COALPROBE_NVDISASM names the nvdisasm to run; set but empty, none is run */
    const char *chosen = getenv("COALPROBE_NVDISASM");
    if (chosen && !chosen[0])
        cp_trace_add_note(t, "no SASS opcodes: COALPROBE_NVDISASM is set and empty");
    else if (chosen)
        cp_trace_add_note(t, "no SASS opcodes: COALPROBE_NVDISASM=%s cannot be run", chosen);
    else
        cp_trace_add_note(t, "no SASS opcodes: nvdisasm (part of the CUDA Toolkit) is not on PATH");
    return -1;
}

/* One job per distinct cubin that holds a counted instruction, into jobs (room for every
 * cubin of t). */
static int cp_trace_sass_jobs(cp_trace *t, const char *dir, cp_trace_sass_job *jobs,
                              size_t *njobs_out, cp_status *st)
{
    size_t njobs = 0;
    int rc = CP_EXIT_OK;
    for (size_t p = 0; p < t->nprocs && rc == CP_EXIT_OK; p++)
        for (size_t c = 0; c < t->procs[p].ncubins && rc == CP_EXIT_OK; c++) {
            const cp_trace_pair *cubin = &t->procs[p].cubins[c];
            uint32_t crc = (uint32_t)strtoul(cubin->a, NULL, 16);
            int seen = 0;
            for (size_t i = 0; i < njobs; i++)
                seen |= jobs[i].crc == crc;
            if (seen)
                continue;
            cp_trace_sass_job *j = &jobs[njobs];
            j->crc = crc;
            const char *from = t->procs[p].dir ? t->procs[p].dir : dir; /* several: its own */
            size_t plen = strlen(from) + strlen(cubin->b) + 2;
            if (!(j->cubin = malloc(plen))) {
                rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading cubins");
                break;
            }
            snprintf(j->cubin, plen, "%s/%s", from, cubin->b);
            if (cp_trace_sass_functions(t, j)) {
                njobs++;
            } else {
                free(j->cubin);
                j->cubin = NULL;
            }
        }
    *njobs_out = njobs;
    return rc;
}

/* Begins job j: its listing from the cache (then it is done), else nvdisasm started. */
static void cp_trace_sass_begin(cp_trace *t, const char *nvdisasm, const cp_trace_sass_cache *cache,
                                const cp_trace_sass_limits *limits, cp_trace_sass_job *j)
{
    struct stat sb;
    j->fd = -1;
    if (stat(j->cubin, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        snprintf(j->why, sizeof j->why, "the file is missing");
        j->done = 1;
        return;
    }
    j->size = sb.st_size;
    j->text = cp_trace_sass_cache_get(cache, j->crc, j->functions, j->size, &j->len);
    if (!j->text && j->functions[0]) /* the whole cubin's, as the prefetch keeps it, holds them */
        j->text = cp_trace_sass_cache_get(cache, j->crc, "", j->size, &j->len);
    if (j->text) {
        j->cached = j->done = 1;
        t->sass_cached++;
        return;
    }
    j->limit = cp_trace_sass_limit(limits, sb.st_size);
    t->sass_ran++;
    (void)cp_trace_sass_start(nvdisasm, j);
}

/* Runs nvdisasm on several cubins at once (a program's modules can take seconds each), or reads
 * their listings from the cache, and gives the instructions their opcodes: given counts them;
 * failures and first_failure say which cubins nvdisasm could not read. */
static int cp_trace_sass_run(cp_trace *t, const char *nvdisasm, cp_trace_sass_cache *cache,
                             cp_trace_sass_job *jobs, size_t njobs, size_t *given_out,
                             size_t *failures_out, char *first_failure, size_t first_failure_size,
                             cp_status *st)
{
    int rc = CP_EXIT_OK;
    cp_trace_sass_limits limits;
    cp_trace_sass_read_limits(t, &limits);
    size_t given = 0, failures = 0, width = cp_trace_sass_parallel();
    for (size_t first = 0; first < njobs && rc == CP_EXIT_OK && !t->stopped; first += width) {
        size_t last = first + width < njobs ? first + width : njobs;
        for (size_t i = first; i < last; i++)
            cp_trace_sass_begin(t, nvdisasm, cache, &limits, &jobs[i]);
        if (cp_trace_sass_wait(jobs + first, last - first, &limits, t->stop)) {
            t->stopped |= CP_TRACE_STOPPED_SASS;
            break; /* the opcodes read so far stay */
        }
        for (size_t i = first; i < last && rc == CP_EXIT_OK; i++) {
            if (!jobs[i].text || jobs[i].why[0]) {
                const char *name = strrchr(jobs[i].cubin, '/');
                if (failures++ == 0)
                    snprintf(first_failure, first_failure_size, "%s: %s",
                             name ? name + 1 : jobs[i].cubin, jobs[i].why);
                continue;
            }
            if (!jobs[i].cached) /* whole: exit 0, within the time limit and the cap */
                cp_trace_sass_cache_put(cache, jobs[i].crc, jobs[i].functions, jobs[i].size,
                                        jobs[i].text, jobs[i].len);
            cp_trace_sass_line *lines = NULL;
            size_t n = 0;
            rc = cp_trace_sass_parse(jobs[i].text, &lines, &n, st);
            free(jobs[i].text);
            jobs[i].text = NULL;
            if (rc == CP_EXIT_OK && cp_trace_sass_apply(t, jobs[i].crc, lines, n, &given) != 0)
                rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading cubins");
            cp_trace_sass_free(lines, n);
        }
    }
    *given_out = given;
    *failures_out = failures;
    return rc;
}

int cp_trace_sass_opcodes(cp_trace *t, const char *dir, int *have_opcodes, cp_status *st)
{
    *have_opcodes = 0;
    size_t counted = 0, ncubins = 0;
    for (size_t p = 0; p < t->nprocs; p++) {
        ncubins += t->procs[p].ncubins;
        for (size_t k = 0; k < t->procs[p].nkernels; k++)
            counted += t->procs[p].kernels[k].ninstrs;
    }
    if (counted == 0)
        return CP_EXIT_OK; /* nothing to give opcodes to: nothing to say */
    if (ncubins == 0) {
        cp_trace_add_note(t, "no SASS opcodes: the raw files name no saved cubin");
        return CP_EXIT_OK;
    }
    char nvdisasm[4096];
    if (cp_trace_sass_nvdisasm(t, nvdisasm, sizeof nvdisasm) != 0)
        return CP_EXIT_OK;
    cp_trace_sass_job *jobs = calloc(ncubins, sizeof *jobs);
    size_t njobs = 0;
    if (!jobs)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading cubins");
    int rc = cp_trace_sass_jobs(t, dir, jobs, &njobs, st);
    size_t given = 0, failures = 0;
    char first_failure[600] = "";
    cp_trace_sass_cache cache;
    cp_trace_sass_cache_open(&cache, nvdisasm);
    if (rc == CP_EXIT_OK)
        rc = cp_trace_sass_run(t, nvdisasm, &cache, jobs, njobs, &given, &failures, first_failure,
                               sizeof first_failure, st);
    if (njobs > 0)
        snprintf(t->sass_cache_note, sizeof t->sass_cache_note, "%s", cache.failure);
    for (size_t i = 0; i < njobs; i++) {
        free(jobs[i].cubin);
        free(jobs[i].text);
    }
    free(jobs);
    if (rc != CP_EXIT_OK)
        return rc;
    if (failures)
        cp_trace_add_note(t,
                          "nvdisasm could not read %zu cubin%s, so some instructions have no "
                          "opcode (first: %s)",
                          failures, failures == 1 ? "" : "s", first_failure);
    *have_opcodes = given > 0;
    return CP_EXIT_OK;
}
