/* cp_trace_sources.c: the source files a page of recorded raw files may embed: those the line
 * tables (.debug_line) of the program's saved cubins name, and the directories they were built
 * from, so that a crafted `source` record cannot put any readable file into a page. */
#define _POSIX_C_SOURCE 200809L
#include "cp_trace_report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A reader of a byte range that fails softly: past the end, everything reads as 0. */
typedef struct cp_trace_bytes {
    const unsigned char *p, *end;
    int bad;
} cp_trace_bytes;

static uint64_t cp_trace_bytes_le(cp_trace_bytes *b, size_t n)
{
    uint64_t v = 0;
    if ((size_t)(b->end - b->p) < n) {
        b->bad = 1;
        b->p = b->end;
        return 0;
    }
    for (size_t i = 0; i < n && i < 8; i++) /* past 8 bytes: skipped (opcode lengths) */
        v |= (uint64_t)b->p[i] << (8 * i);
    b->p += n;
    return v;
}

static uint64_t cp_trace_bytes_uleb(cp_trace_bytes *b)
{
    uint64_t v = 0;
    for (unsigned shift = 0; b->p < b->end && shift < 64; shift += 7) {
        unsigned char c = *b->p++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return v;
    }
    b->bad = 1;
    return v;
}

/* A NUL-terminated string at the reader, or NULL (bad) when none ends inside. */
static const char *cp_trace_bytes_string(cp_trace_bytes *b)
{
    const unsigned char *nul = memchr(b->p, '\0', (size_t)(b->end - b->p));
    if (!nul) {
        b->bad = 1;
        return NULL;
    }
    const char *s = (const char *)b->p;
    b->p = nul + 1;
    return s;
}

/* The bytes of the section called name in an ELF64 little-endian image, or 0. */
static int cp_trace_elf_section(const unsigned char *elf, size_t size, const char *name,
                                cp_trace_bytes *out)
{
    if (size < 64 || memcmp(elf, "\177ELF", 4) != 0 || elf[4] != 2 || elf[5] != 1)
        return 0;
    cp_trace_bytes h = {elf + 0x28, elf + size, 0};
    uint64_t shoff = cp_trace_bytes_le(&h, 8);
    h.p = elf + 0x3a;
    uint64_t entsize = cp_trace_bytes_le(&h, 2), shnum = cp_trace_bytes_le(&h, 2),
             strndx = cp_trace_bytes_le(&h, 2);
    if (h.bad || entsize < 64 || strndx >= shnum || shoff > size ||
        shnum > (size - shoff) / entsize)
        return 0;
    const unsigned char *names = elf + shoff + strndx * entsize;
    uint64_t stroff = 0, strsize = 0;
    memcpy(&stroff, names + 0x18, 8);
    memcpy(&strsize, names + 0x20, 8);
    if (stroff > size || strsize > size - stroff)
        return 0;
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *sh = elf + shoff + i * entsize;
        uint32_t at;
        uint64_t off, len;
        memcpy(&at, sh, 4);
        memcpy(&off, sh + 0x18, 8);
        memcpy(&len, sh + 0x20, 8);
        if (at >= strsize || off > size || len > size - off)
            continue;
        const char *n = (const char *)elf + stroff + at;
        if (memchr(n, '\0', strsize - at) && strcmp(n, name) == 0) {
            *out = (cp_trace_bytes){elf + off, elf + off + len, 0};
            return 1;
        }
    }
    return 0;
}

/* Adds a copy of s to the list unless it is there; -1 when memory runs out. */
static int cp_trace_sources_add(char ***list, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*list)[i], s) == 0)
            return 0;
    char **grown = realloc(*list, (*n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    *list = grown;
    if (!(grown[*n] = strdup(s)))
        return -1;
    (*n)++;
    return 0;
}

/* One unit of .debug_line (DWARF 2 to 4, 32-bit): its directories and files into l. */
static int cp_trace_sources_unit(cp_trace_bytes *b, cp_trace_line_files *l)
{
    uint64_t unit = cp_trace_bytes_le(b, 4);
    if (b->bad || unit >= 0xfffffff0u || unit > (uint64_t)(b->end - b->p)) {
        b->p = b->end;
        return 0;
    }
    const unsigned char *next = b->p + unit;
    cp_trace_bytes u = {b->p, next, 0};
    b->p = next;
    uint64_t version = cp_trace_bytes_le(&u, 2);
    if (version < 2 || version > 4)
        return 0;
    cp_trace_bytes_le(&u, 4);                    /* header_length */
    cp_trace_bytes_le(&u, version >= 4 ? 5 : 4); /* up to line_range */
    uint64_t opcode_base = cp_trace_bytes_le(&u, 1);
    cp_trace_bytes_le(&u, opcode_base ? opcode_base - 1 : 0); /* standard_opcode_lengths */
    const char *dirs[256];
    size_t ndirs = 0;
    for (const char *d; !u.bad && (d = cp_trace_bytes_string(&u)) && *d;)
        if (ndirs < CP_COUNT_OF(dirs)) {
            dirs[ndirs++] = d;
            if (d[0] == '/' && cp_trace_sources_add(&l->dirs, &l->ndirs, d) != 0)
                return -1;
        }
    for (const char *f; !u.bad && (f = cp_trace_bytes_string(&u)) && *f;) {
        uint64_t dir = cp_trace_bytes_uleb(&u);
        cp_trace_bytes_uleb(&u); /* mtime */
        cp_trace_bytes_uleb(&u); /* length */
        if (u.bad)
            break;
        if (f[0] == '/' || dir == 0 || dir > ndirs) {
            if (cp_trace_sources_add(&l->files, &l->nfiles, f) != 0)
                return -1;
            continue;
        }
        size_t len = strlen(dirs[dir - 1]) + strlen(f) + 2;
        char *path = malloc(len);
        if (!path)
            return -1;
        snprintf(path, len, "%s/%s", dirs[dir - 1], f);
        int rc = cp_trace_sources_add(&l->files, &l->nfiles, path);
        free(path);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int cp_trace_line_files_read(const cp_trace *t, const char *dir, cp_trace_line_files *l)
{
    memset(l, 0, sizeof *l);
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t c = 0; c < t->procs[p].ncubins; c++) {
            const char *from = t->procs[p].dir ? t->procs[p].dir : dir;
            const char *name = t->procs[p].cubins[c].b;
            if (!from || !name)
                continue;
            size_t plen = strlen(from) + strlen(name) + 2, size = 0;
            char *path = malloc(plen);
            if (!path)
                return -1;
            snprintf(path, plen, "%s/%s", from, name);
            unsigned char *elf = (unsigned char *)cp_text_read_file(path, &size);
            free(path);
            cp_trace_bytes b;
            int rc = 0;
            if (elf && cp_trace_elf_section(elf, size, ".debug_line", &b))
                while (rc == 0 && b.p < b.end && !b.bad)
                    rc = cp_trace_sources_unit(&b, l);
            free(elf);
            if (rc != 0)
                return -1;
        }
    return 0;
}

void cp_trace_line_files_free(cp_trace_line_files *l)
{
    for (size_t i = 0; i < l->nfiles; i++)
        free(l->files[i]);
    for (size_t i = 0; i < l->ndirs; i++)
        free(l->dirs[i]);
    free(l->files);
    free(l->dirs);
    memset(l, 0, sizeof *l);
}
