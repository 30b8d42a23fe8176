/* cp_dl.h: loading a shared library on demand (CUPTI, NVRTC, cuBLAS are not linked: a machine
 * without one still runs what does not need it): which file to load, dlopen, and looking up a
 * table of functions. The callers word their own messages. */
#ifndef CP_DL_H
#define CP_DL_H

#include <stddef.h>

/* One function to look up: its exported name, and where its address goes. */
typedef struct cp_dl_symbol {
    void **fn;
    const char *name;
} cp_dl_symbol;

/* The library to load: the value of the environment variable env when it is set and not empty
 * (env may be NULL), else fallback. */
const char *cp_dl_name(const char *env, const char *fallback);

/* dlopen(name, RTLD_NOW | RTLD_LOCAL): NULL when it cannot be loaded, dlerror() saying why. */
void *cp_dl_open(const char *name);

/* Looks up every syms[i].name in lib into *syms[i].fn. NULL when all were found, else the name
 * of the first one lib lacks (dlerror() says why until the next dl call). */
const char *cp_dl_lookup(void *lib, const cp_dl_symbol *syms, size_t n);

/* cp_dl_open(name), then cp_dl_lookup of syms[n] in it: the library, or NULL with *missing NULL
 * when it cannot be loaded (dlerror() says why), else the name of the first function it lacks
 * (the library is closed again). */
void *cp_dl_load(const char *name, const cp_dl_symbol *syms, size_t n, const char **missing);

#endif
