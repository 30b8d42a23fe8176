/* cp_family.c: the pattern families' descriptors as one table, in the order of the registry
 * (families/cp_families.def; each descriptor is its family's cp_<family>_family.c), the options
 * of their parameters, all families together, the checks and inits several families share
 * (cp_family_def.h), and the look-ups every layer reads a descriptor through. */
#include "cp_family.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_config.h"
#include "cp_family_def.h"

/* --- what several families share (cp_family_def.h) ---------------------------------------- */

/* Access widths of global memory: 4, 8, 16 or 32 bytes. */
int cp_family_check_width(const cp_sweep *w, cp_status *st)
{
    for (size_t i = 0; i < w->count; i++) {
        uint64_t v = w->values[i];
        if (v != 4 && v != 8 && v != 16 && v != 32) {
            cp_status_set(st, CP_EXIT_USAGE, "--width: '%llu' is not an access width",
                          (unsigned long long)v);
            cp_status_hint(st, "widths are 4, 8, 16 or 32 bytes, e.g. --width 4,8,16,32");
            return CP_EXIT_USAGE;
        }
    }
    return CP_EXIT_OK;
}

/* One thread per 4-byte element. */
void cp_family_init_words(cp_config *c, uint64_t size_bytes)
{
    c->elements = cp_config_elements_for_size(size_bytes, 4);
}

/* Each family's descriptor, defined in its folder. */
#define CP_FAMILY(NAME, name) extern const cp_family_desc cp_##name##_family;
#include "cp_families.def"
#undef CP_FAMILY

/* The families, in the order of cp_family; the first is the default. */
static const cp_family_desc *const cp_families[] = {
#define CP_FAMILY(NAME, name) [CP_FAMILY_##NAME] = &cp_##name##_family,
#include "cp_families.def"
#undef CP_FAMILY
};
_Static_assert(CP_COUNT_OF(cp_families) == CP_FAMILY_COUNT, "one descriptor per family");

const char *cp_family_counter_metric(const cp_family_counter *k, const cp_config *c)
{
    return k->metric_of && k->alt_metric && k->metric_of(c) ? k->alt_metric : k->metric;
}

const cp_family_desc *cp_family_get(cp_family f)
{
    return (unsigned)f < CP_FAMILY_COUNT ? cp_families[f] : NULL;
}

int cp_family_needs_cc(const cp_config *c)
{
    const cp_family_desc *fd = cp_family_get(c->family);
    return fd && fd->needs_cc ? fd->needs_cc(c) : 0;
}

int cp_family_find(const char *name, cp_family *f)
{
    for (int i = 0; i < CP_FAMILY_COUNT; i++)
        if (strcmp(name, cp_families[i]->name) == 0) {
            *f = (cp_family)i;
            return 1;
        }
    return 0;
}

/* --- the parameters' options, all families together ----------------------------------------- */

static const char *cp_param_options[CP_PARAM_MAX];
static size_t cp_nparam_options;
static pthread_once_t cp_param_once = PTHREAD_ONCE_INIT;

/* Each family's options in the order of the registry and of its help, each once. */
static void cp_param_collect(void)
{
    for (int f = 0; f < CP_FAMILY_COUNT; f++) {
        const cp_family_param *ps;
        for (size_t i = 0; (ps = cp_family_help_param(cp_families[f], i)) != NULL; i++) {
            size_t k = 0;
            while (k < cp_nparam_options && strcmp(cp_param_options[k], ps->option) != 0)
                k++;
            if (k < cp_nparam_options)
                continue;
            if (k == CP_PARAM_MAX)
                abort(); /* CP_PARAM_MAX is too small: a bug every test catches */
            cp_param_options[cp_nparam_options++] = ps->option;
        }
    }
}

size_t cp_param_count(void)
{
    pthread_once(&cp_param_once, cp_param_collect);
    return cp_nparam_options;
}

const char *cp_param_option(cp_param p)
{
    return p < cp_param_count() ? cp_param_options[p] : "?";
}

int cp_param_find(const char *option, cp_param *p)
{
    for (cp_param k = 0; k < cp_param_count(); k++)
        if (strcmp(cp_param_options[k], option) == 0) {
            *p = k;
            return 1;
        }
    return 0;
}

cp_param cp_param_index(const cp_family_param *ps)
{
    cp_param p = 0;
    if (!cp_param_find(ps->option, &p))
        abort(); /* every family's parameter is among the options */
    return p;
}

const cp_family_param *cp_family_param_named(const cp_family_desc *d, const char *option)
{
    for (size_t i = 0; option && i < d->nparams; i++)
        if (strcmp(d->params[i].option, option) == 0)
            return &d->params[i];
    return NULL;
}

const cp_family_param *cp_family_param_of(const cp_family_desc *d, cp_param p)
{
    return p < cp_param_count() ? cp_family_param_named(d, cp_param_options[p]) : NULL;
}

/* 1 when d's help_order names option. */
static int cp_family_help_names(const cp_family_desc *d, const char *option)
{
    for (size_t k = 0; k < CP_FAMILY_PARAMS_MAX && d->help_order[k]; k++)
        if (strcmp(d->help_order[k], option) == 0)
            return 1;
    return 0;
}

/* The parameters help_order names, in its order, then the others in params[]'s order. */
const cp_family_param *cp_family_help_param(const cp_family_desc *d, size_t i)
{
    if (i >= d->nparams)
        return NULL;
    size_t named = 0;
    while (named < CP_FAMILY_PARAMS_MAX && d->help_order[named])
        named++;
    if (i < named)
        return cp_family_param_named(d, d->help_order[i]);
    for (size_t k = 0, rest = i - named; k < d->nparams; k++)
        if (!cp_family_help_names(d, d->params[k].option) && rest-- == 0)
            return &d->params[k];
    return NULL;
}

const cp_family_field *cp_family_field_of(const cp_family_desc *d, const char *key)
{
    for (size_t i = 0; key && i < d->nfields; i++)
        if (strcmp(d->fields[i].key, key) == 0)
            return &d->fields[i];
    return NULL;
}

const char *cp_family_field_name(const cp_family_field *f, const cp_config *c)
{
    uint64_t v = f->get(c);
    return v < f->nnames ? f->names[v] : "?";
}

const char *cp_family_field_label(const cp_family_field *f)
{
    return f->label ? f->label : f->key;
}

int cp_family_field_number(const cp_family_field *f)
{
    return f && (f->kind == CP_FIELD_U64 || f->kind == CP_FIELD_BYTES);
}

void cp_family_field_format(const cp_family_field *f, const cp_config *c, char *buf, size_t len)
{
    if (f->kind == CP_FIELD_BYTES)
        cp_sweep_format_bytes(f->get(c), buf, len);
    else
        snprintf(buf, len, "%" PRIu64, f->get(c));
}
