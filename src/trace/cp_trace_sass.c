/* cp_trace_sass.c: SASS opcodes for the traced instructions: runs nvdisasm (when it is on PATH)
 * on each cubin the injection library saved and maps every function's PC offsets to opcodes.
 * Optional: without nvdisasm the report has no opcodes and says why once. Only cubins with a
 * counted instruction are read, several at once (a PyTorch module's listing takes seconds).
 * COALPROBE_NVDISASM names another nvdisasm; set and empty, none is run (for reports that must not
 * depend on the machine, e.g. the tests' goldens). */
#define _POSIX_C_SOURCE 200809L
#include "cp_trace_report.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cp_trace_launch.h"

#define CP_TRACE_SASS_MAX_OUTPUT (512u << 20)

/* ---- the parser --------------------------------------------------------------------------- */

static int cp_trace_sass_push(cp_trace_sass_line **lines, size_t *n, size_t *cap,
                              const char *function, uint32_t pc, const char *op, size_t oplen)
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
    l->function = strdup(function);
    l->opcode = malloc(oplen + 1);
    l->pc = pc;
    if (!l->function || !l->opcode) {
        free(l->function);
        free(l->opcode);
        return -1;
    }
    memcpy(l->opcode, op, oplen);
    l->opcode[oplen] = '\0';
    (*n)++;
    return 0;
}

int cp_trace_sass_parse(const char *text, cp_trace_sass_line **lines, size_t *n, cp_status *st)
{
    *lines = NULL;
    *n = 0;
    size_t cap = 0;
    char *function = NULL; /* the .text section being read */
    int rc = CP_EXIT_OK;
    for (const char *line = text; line && *line && rc == CP_EXIT_OK;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *s = line, *stop = line + len;
        while (s < stop && (*s == ' ' || *s == '\t'))
            s++;
        static const char section[] = ".section";
        static const char text_prefix[] = ".text.";
        if ((size_t)(stop - s) > sizeof section && strncmp(s, section, sizeof section - 1) == 0 &&
            (s[sizeof section - 1] == ' ' || s[sizeof section - 1] == '\t')) {
            s += sizeof section - 1;
            while (s < stop && (*s == ' ' || *s == '\t'))
                s++;
            size_t name = strcspn(s, ", \t\n");
            if (s + name > stop)
                name = (size_t)(stop - s);
            free(function);
            function = NULL;
            if (name > sizeof text_prefix - 1 &&
                strncmp(s, text_prefix, sizeof text_prefix - 1) == 0) {
                size_t fl = name - (sizeof text_prefix - 1);
                function = malloc(fl + 1);
                if (!function) {
                    rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading nvdisasm");
                    break;
                }
                memcpy(function, s + sizeof text_prefix - 1, fl);
                function[fl] = '\0';
            }
        } else if (function && stop - s > 4 && s[0] == '/' && s[1] == '*') {
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
                if (oplen && cp_trace_sass_push(lines, n, &cap, function, pc, s, oplen) != 0)
                    rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading nvdisasm");
            }
        }
        line = end ? end + 1 : NULL;
    }
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

/* One nvdisasm run: its cubin, the temporary file its listing goes to, the process. */
typedef struct cp_trace_sass_job {
    uint32_t crc;
    char *cubin; /* DIR/FILE */
    char listing[4200];
    char functions[4096]; /* nvdisasm -fun: the symbols of the counted functions, or "" */
    pid_t pid;            /* 0: not started (or failed to start: why says so) */
    char why[256];
} cp_trace_sass_job;

/* Starts `nvdisasm -c -ndf [-fun LIST] CUBIN > LISTING` (a new temporary file); 0, or -1 with why.
 */
static int cp_trace_sass_start(const char *nvdisasm, cp_trace_sass_job *j)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !tmp[0])
        tmp = "/tmp";
    snprintf(j->listing, sizeof j->listing, "%s/coalprobe-sass-XXXXXX", tmp);
    int out = mkstemp(j->listing);
    if (out < 0) {
        snprintf(j->why, sizeof j->why, "cannot create a file in %s: %s", tmp, strerror(errno));
        j->listing[0] = '\0';
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(j->why, sizeof j->why, "fork: %s", strerror(errno));
        close(out);
        return -1;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, STDIN_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        dup2(out, STDOUT_FILENO);
        close(out);
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
    close(out);
    j->pid = pid;
    return 0;
}

/* Waits for j's nvdisasm and returns its listing (malloc'd), or NULL with why; the temporary
 * file is removed either way. */
static char *cp_trace_sass_finish(cp_trace_sass_job *j)
{
    char *text = NULL;
    size_t len = 0;
    if (j->pid > 0) {
        int status = 0;
        while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
            ;
        j->pid = 0;
        struct stat sb;
        if (!WIFEXITED(status))
            snprintf(j->why, sizeof j->why, "it was killed by signal %d", WTERMSIG(status));
        else if (WEXITSTATUS(status) != 0)
            snprintf(j->why, sizeof j->why, "it exited with status %d", WEXITSTATUS(status));
        else if (stat(j->listing, &sb) != 0 || sb.st_size > (off_t)CP_TRACE_SASS_MAX_OUTPUT)
            snprintf(j->why, sizeof j->why, "its output is too large");
        else if (!(text = cp_text_read_file(j->listing, &len)))
            snprintf(j->why, sizeof j->why, "its output cannot be read");
    }
    if (j->listing[0])
        (void)unlink(j->listing);
    j->listing[0] = '\0';
    return text;
}

/* Processors to run nvdisasm on, one cubin each. */
static size_t cp_trace_sass_parallel(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 16 ? 16 : (size_t)n;
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
    cp_trace_sass_line key = {(char *)function, pc, NULL};
    return bsearch(&key, lines, n, sizeof *lines, cp_trace_sass_order);
}

/* Gives the opcodes of one cubin's listing to every instruction of that cubin. */
static int cp_trace_sass_apply(cp_trace *t, uint32_t crc, cp_trace_sass_line *lines, size_t n,
                               size_t *given)
{
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
    /* COALPROBE_NVDISASM names the nvdisasm to run; set but empty, none is run */
    const char *chosen = getenv("COALPROBE_NVDISASM");
    if (chosen && !chosen[0]) {
        cp_trace_add_note(t, "no SASS opcodes: COALPROBE_NVDISASM is set and empty");
        return CP_EXIT_OK;
    }
    char nvdisasm[4096];
    cp_status ignored;
    cp_status_clear(&ignored);
    if (cp_trace_find_program(chosen ? chosen : "nvdisasm", nvdisasm, sizeof nvdisasm, &ignored) !=
        CP_EXIT_OK) {
        if (chosen)
            cp_trace_add_note(t, "no SASS opcodes: COALPROBE_NVDISASM=%s cannot be run", chosen);
        else
            cp_trace_add_note(t, "no SASS opcodes: nvdisasm (part of the CUDA Toolkit) is not "
                                 "on PATH");
        return CP_EXIT_OK;
    }
    /* one job per distinct cubin that holds a counted instruction */
    cp_trace_sass_job *jobs = calloc(ncubins, sizeof *jobs);
    size_t njobs = 0;
    if (!jobs)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading cubins");
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
            size_t plen = strlen(dir) + strlen(cubin->b) + 2;
            if (!(j->cubin = malloc(plen))) {
                rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading cubins");
                break;
            }
            snprintf(j->cubin, plen, "%s/%s", dir, cubin->b);
            if (cp_trace_sass_functions(t, j)) {
                njobs++;
            } else {
                free(j->cubin);
                j->cubin = NULL;
            }
        }
    /* nvdisasm on several cubins at once (a program's modules can take seconds each) */
    size_t given = 0, failures = 0, width = cp_trace_sass_parallel();
    char first_failure[600] = "";
    for (size_t first = 0; first < njobs && rc == CP_EXIT_OK; first += width) {
        size_t last = first + width < njobs ? first + width : njobs;
        for (size_t i = first; i < last; i++) {
            struct stat sb;
            if (stat(jobs[i].cubin, &sb) != 0 || !S_ISREG(sb.st_mode))
                snprintf(jobs[i].why, sizeof jobs[i].why, "the file is missing");
            else
                (void)cp_trace_sass_start(nvdisasm, &jobs[i]);
        }
        for (size_t i = first; i < last; i++) {
            char *listing = cp_trace_sass_finish(&jobs[i]);
            if (!listing) {
                const char *name = strrchr(jobs[i].cubin, '/');
                if (failures++ == 0)
                    snprintf(first_failure, sizeof first_failure, "%s: %s",
                             name ? name + 1 : jobs[i].cubin, jobs[i].why);
                continue;
            }
            if (rc != CP_EXIT_OK) {
                free(listing);
                continue; /* the rest are still waited for */
            }
            cp_trace_sass_line *lines = NULL;
            size_t n = 0;
            rc = cp_trace_sass_parse(listing, &lines, &n, st);
            free(listing);
            if (rc == CP_EXIT_OK && cp_trace_sass_apply(t, jobs[i].crc, lines, n, &given) != 0)
                rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading cubins");
            cp_trace_sass_free(lines, n);
        }
    }
    for (size_t i = 0; i < njobs; i++)
        free(jobs[i].cubin);
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
