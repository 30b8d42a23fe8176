/* cp_trace_inductor.c: where a Triton kernel that torch.compile (Inductor) generated came from.
 * Its line information points into the generated kernel file (torchinductor cache, e.g.
 * /tmp/torchinductor_USER/ny/cny...py); the wrapper Inductor generated beside it, in another
 * directory of the same cache, launches it under two comments that name its origin:
 *
 *     # kernel path: /tmp/torchinductor_USER/ny/cny...py
 *     # Topologically Sorted Source Nodes: [mul, relu, add], Original ATen: [aten.mul, ...]
 *     ...
 *     triton_poi_fused_add_mul_relu_0 = async_compile.triton('triton_poi_fused_add_mul_relu_0', ...
 *
 * The source nodes are the FX graph's names for the user's operations, the ATen operators what
 * they lowered to. This module finds that wrapper and reads the two lists for each kernel whose
 * file is such a kernel file (cp_trace_inductor_all). The generated files name no line of the
 * user's source; the user's line of a compiled call is the launch's Python frame. */
#define _POSIX_C_SOURCE 200809L
#include "cp_trace_report.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Most files of the cache read, and the largest, per kernel file: a cache is searched, never
 * read whole whatever its size. */
#define CP_INDUCTOR_MAX_FILES 4096
#define CP_INDUCTOR_MAX_BYTES (8u << 20)

/* The text of a regular file of at most CP_INDUCTOR_MAX_BYTES (malloc'd), NULL otherwise. */
static char *cp_inductor_read(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > (off_t)CP_INDUCTOR_MAX_BYTES)
        return NULL;
    FILE *f = fopen(path, "rb");
    char *text = f ? malloc((size_t)sb.st_size + 1) : NULL;
    size_t len = text ? fread(text, 1, (size_t)sb.st_size, f) : 0;
    if (f)
        fclose(f);
    if (text)
        text[len] = '\0';
    return text;
}

/* A copy of the bracketed list after `key` in line [p, end) ("mul, relu, add"), or NULL. */
static char *cp_inductor_list(const char *p, const char *end, const char *key)
{
    const char *k = strstr(p, key);
    if (!k || k >= end)
        return NULL;
    const char *open = k + strlen(key);
    const char *close = memchr(open, ']', (size_t)(end - open));
    if (!close)
        return NULL;
    return strndup(open, (size_t)(close - open));
}

/* In a wrapper's text: the origin of the kernel at kernel_file named function. 1 when found
 * (nodes and aten set, malloc'd). */
static int cp_inductor_find(const char *text, const char *kernel_file, const char *function,
                            char **nodes, char **aten)
{
    char marker[4200];
    snprintf(marker, sizeof marker, "# kernel path: %s\n", kernel_file);
    for (const char *at = strstr(text, marker); at; at = strstr(at + 1, marker)) {
        const char *line = at + strlen(marker);
        const char *end = strchr(line, '\n');
        if (!end || strncmp(line, "# Topologically Sorted Source Nodes: [", 38) != 0)
            continue;
        /* the kernel defined right below must be the one asked about */
        const char *def = strstr(end, " = async_compile.triton('");
        size_t flen = strlen(function);
        if (!def || def - flen < end || strncmp(def - flen, function, flen) != 0 ||
            (def - flen > text && def[-(long)flen - 1] != '\n'))
            continue;
        *nodes = cp_inductor_list(line, end, "Source Nodes: [");
        *aten = cp_inductor_list(line, end, "Original ATen: [");
        if (*nodes && *aten)
            return 1;
        free(*nodes);
        free(*aten);
        *nodes = *aten = NULL;
    }
    return 0;
}

/* The directory two levels above path ("/tmp/c/ny/k.py" -> "/tmp/c"), malloc'd; NULL if none. */
static char *cp_inductor_cache_root(const char *path)
{
    char *root = strdup(path);
    for (int up = 0; root && up < 2; up++) {
        char *slash = strrchr(root, '/');
        if (!slash || slash == root) {
            free(root);
            return NULL;
        }
        *slash = '\0';
    }
    return root;
}

/* Searches the .py files one directory below root for the wrapper of function at kernel_file. */
static int cp_inductor_search(const char *root, const char *kernel_file, const char *function,
                              cp_trace_inductor *out)
{
    DIR *top = opendir(root);
    size_t files = 0;
    int found = 0;
    for (struct dirent *e; top && !found && files < CP_INDUCTOR_MAX_FILES && (e = readdir(top));) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", root, e->d_name);
        DIR *d = opendir(sub);
        for (struct dirent *f; d && !found && files < CP_INDUCTOR_MAX_FILES && (f = readdir(d));) {
            size_t len = strlen(f->d_name);
            if (len < 4 || strcmp(f->d_name + len - 3, ".py") != 0)
                continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
            if (strcmp(path, kernel_file) == 0)
                continue;
            files++;
            char *text = cp_inductor_read(path);
            if (text && cp_inductor_find(text, kernel_file, function, &out->nodes, &out->aten)) {
                out->wrapper = strdup(path);
                found = out->wrapper != NULL;
            }
            free(text);
        }
        if (d)
            closedir(d);
    }
    if (top)
        closedir(top);
    return found;
}

int cp_trace_inductor_origin(const char *kernel_file, const char *function, cp_trace_inductor *out)
{
    memset(out, 0, sizeof *out);
    size_t len = kernel_file ? strlen(kernel_file) : 0;
    if (len < 4 || strcmp(kernel_file + len - 3, ".py") != 0 || !function || !function[0])
        return 0;
    char *root = cp_inductor_cache_root(kernel_file);
    int found = root && cp_inductor_search(root, kernel_file, function, out);
    free(root);
    if (!found)
        cp_trace_inductor_free(out);
    return found;
}

void cp_trace_inductor_free(cp_trace_inductor *o)
{
    free(o->nodes);
    free(o->aten);
    free(o->wrapper);
    memset(o, 0, sizeof *o);
}

void cp_trace_inductor_all(cp_trace *t)
{
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t k = 0; k < t->procs[p].nkernels; k++) {
            cp_trace_kernel *kk = &t->procs[p].kernels[k];
            const char *file = NULL;
            for (size_t i = 0; i < kk->ninstrs && !file; i++)
                file = kk->instrs[i].file;
            if (file && strncmp(kk->function, "triton_", 7) == 0)
                cp_trace_inductor_origin(file, kk->function, &kk->inductor);
        }
}
