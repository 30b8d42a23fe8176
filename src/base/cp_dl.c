/* cp_dl.c: loading a shared library on demand and looking up its functions (cp_dl.h). */
#include "cp_dl.h"

#include <dlfcn.h>
#include <stdlib.h>

const char *cp_dl_name(const char *env, const char *fallback)
{
    const char *value = env ? getenv(env) : NULL;
    return value && *value ? value : fallback;
}

void *cp_dl_open(const char *name)
{
    return dlopen(name, RTLD_NOW | RTLD_LOCAL);
}

const char *cp_dl_lookup(void *lib, const cp_dl_symbol *syms, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        *syms[i].fn = dlsym(lib, syms[i].name);
        if (!*syms[i].fn)
            return syms[i].name;
    }
    return NULL;
}

void *cp_dl_load(const char *name, const cp_dl_symbol *syms, size_t n, const char **missing)
{
    *missing = NULL;
    void *lib = cp_dl_open(name);
    if (!lib)
        return NULL;
    *missing = cp_dl_lookup(lib, syms, n);
    if (*missing) {
        dlclose(lib);
        return NULL;
    }
    return lib;
}
