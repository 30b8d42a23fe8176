/* test_family.c: unit tests of the pattern families' descriptors (families/NAME/cp_NAME_family.c,
 * in the table of src/model/cp_family.c):
 * every entry is complete and consistent, and what the CLI, the plan and the reports read from
 * it gives each family's configurations as before. */
#include "model/cp_model.h"

#include "cp_test.h"
/* the families' own configurations, after the layers */
#include "cp_gemm_config.h"
#include "cp_smem_config.h"
#include "cp_stride_config.h"
#include "cp_transpose_config.h"

#include <stdint.h>
#include <string.h>

/* Every family: a unique name found back by cp_family_find, a model, help, parameters with a
 * setter and a default, keys that name fields, and named fields with their names. */
static void test_table_complete(void)
{
    CHECK(cp_family_get(CP_FAMILY_COUNT) == NULL);
    CHECK(cp_family_get((cp_family)-1) == NULL);
    cp_family f;
    CHECK(!cp_family_find("compare", &f));
    CHECK(!cp_family_find("", &f));
    for (int i = 0; i < CP_FAMILY_COUNT; i++) {
        const cp_family_desc *d = cp_family_get((cp_family)i);
        CHECK(d != NULL);
        if (!d)
            continue;
        CHECK(d->name && d->name[0]);
        CHECK(cp_family_find(d->name, &f) && f == (cp_family)i);
        CHECK(strcmp(cp_config_family_name((cp_family)i), d->name) == 0);
        CHECK(d->model != NULL);
        /* its help: a summary, what it teaches, two examples of the family's command, and what
         * each parameter it sweeps is (and nothing for one it does not) */
        CHECK(d->summary && d->summary[0] && d->teaches && strlen(d->teaches) > 80);
        for (size_t e = 0; e < CP_COUNT_OF(d->examples); e++)
            CHECK(d->examples[e].command && d->examples[e].says &&
                  strncmp(d->examples[e].command, "coalprobe ", 10) == 0 &&
                  (i == 0 || strncmp(d->examples[e].command + 10, d->name, strlen(d->name)) == 0));
        CHECK(!d->size_doc == !d->size_default);
        CHECK(!d->options == !d->takes_index);
        CHECK(d->list && d->list[0] && d->list[strlen(d->list) - 1] == '\n');
        CHECK(d->list_front != NULL);
        CHECK(d->size_default || d->size_hint);
        CHECK(d->nparams >= 1 && d->nparams <= CP_FAMILY_PARAMS_MAX && d->nfields >= 1);
        for (size_t p = 0; p < d->nparams; p++) {
            const cp_family_param *ps = &d->params[p];
            CHECK(ps->option && strncmp(ps->option, "--", 2) == 0 && ps->option[2]);
            CHECK(ps->arg && ps->arg[0] && ps->doc && ps->doc[0]); /* its help */
            CHECK(ps->set && ps->default_spec);
            CHECK(cp_family_param_named(d, ps->option) == ps); /* each option once */
            CHECK(cp_family_param_of(d, cp_param_index(ps)) == ps);
            CHECK(strcmp(cp_param_option(cp_param_index(ps)), ps->option) == 0);
            CHECK(ps->names ? ps->nnames >= 2 : ps->min <= ps->max);
            /* its help order names every parameter once */
            int seen = 0;
            for (size_t h = 0; h < d->nparams; h++)
                seen += cp_family_help_param(d, h) == ps;
            CHECK_EQ_U64(seen, 1);
        }
        CHECK(cp_family_help_param(d, d->nparams) == NULL);
        for (size_t k = 0; k < d->nfields; k++) {
            const cp_family_field *fl = &d->fields[k];
            CHECK(cp_family_field_of(d, fl->key) == fl); /* each key once */
            if (fl->kind == CP_FIELD_U64 || fl->kind == CP_FIELD_NAME)
                CHECK(fl->get != NULL);
            if (fl->kind == CP_FIELD_NAME)
                CHECK(fl->names && fl->nnames >= 2);
            /* the chart's axis title of a number starts with its label, its unit is a number's */
            if (fl->title)
                CHECK(cp_family_field_number(fl) &&
                      strncmp(fl->title, cp_family_field_label(fl),
                              strlen(cp_family_field_label(fl))) == 0);
            CHECK(!fl->unit || cp_family_field_number(fl));
        }
        const char *const *lists[] = {d->describe, d->table, d->chart};
        for (size_t l = 0; l < 3; l++) {
            CHECK(lists[l][0] != NULL);
            for (size_t k = 0; k < CP_SHOWN_MAX && lists[l][k]; k++)
                CHECK(cp_family_field_of(d, lists[l][k]) != NULL);
        }
        for (int g = 0; g < i; g++)
            CHECK(strcmp(cp_family_get((cp_family)g)->name, d->name) != 0);
    }
    /* the options of the parameters, all families together, each once, in the order of the
     * registry and of each family's help: --stride first (the default family's first) */
    CHECK(cp_param_count() >= 2 && cp_param_count() <= CP_PARAM_MAX);
    CHECK(strcmp(cp_param_option(0), "--stride") == 0);
    cp_param seed = 0;
    CHECK(cp_param_find("--seed", &seed) && strcmp(cp_param_option(seed), "--seed") == 0);
    CHECK(!cp_param_find("--size", &seed)); /* not a parameter: every family's */
    for (cp_param p = 0; p < cp_param_count(); p++)
        for (cp_param q = 0; q < p; q++)
            CHECK(strcmp(cp_param_option(p), cp_param_option(q)) != 0);
    CHECK(strcmp(cp_param_option(cp_param_count()), "?") == 0);
    /* a help order that names some parameters: those first, then the others in params[]'s order
     * (a parameter it forgets still has its help and its option) */
    static const cp_family_param three[] = {
        {.option = "--a"}, {.option = "--b"}, {.option = "--c"}};
    cp_family_desc partial = {.params = three, .nparams = 3, .help_order = {"--b"}};
    CHECK(cp_family_help_param(&partial, 0) == &three[1]);
    CHECK(cp_family_help_param(&partial, 1) == &three[0]);
    CHECK(cp_family_help_param(&partial, 2) == &three[2]);
    CHECK(cp_family_help_param(&partial, 3) == NULL);
    cp_family_desc plain = {.params = three, .nparams = 3};
    CHECK(cp_family_help_param(&plain, 2) == &three[2]);
}

/* A configuration of family f with every swept parameter set to its entry's default's first
 * value (names: the first name), then what the family fills from size_bytes. */
static cp_config config_of(cp_family f, uint64_t size_bytes)
{
    const cp_family_desc *d = cp_family_get(f);
    cp_config c;
    memset(&c, 0, sizeof c);
    c.family = f;
    for (size_t p = 0; p < d->nparams; p++) {
        const cp_family_param *ps = &d->params[p];
        cp_sweep s = {NULL, 0};
        cp_status st;
        cp_status_clear(&st);
        int rc = ps->names
                     ? cp_sweep_parse_names(ps->default_spec, "x", ps->names, ps->nnames, &s, &st)
                     : cp_sweep_parse(ps->default_spec, "x", ps->min, ps->max, &s, &st);
        CHECK(rc == CP_EXIT_OK && s.count >= 1);
        if (rc == CP_EXIT_OK && s.count)
            ps->set(&c, s.values[0]);
        if (rc == CP_EXIT_OK && ps->check)
            CHECK(ps->check(&s, &st) == CP_EXIT_OK);
        cp_sweep_free(&s);
    }
    if (d->init)
        d->init(&c, size_bytes);
    return c;
}

/* The descriptions, built from the descriptors' describe keys, of each family's defaults. */
static void test_describe(void)
{
    static const struct {
        cp_family f;
        const char *want;
    } cases[] = {
        {CP_FAMILY_STRIDE, "stride=1 offset=0 width=4 op=load"},
        {CP_FAMILY_LAYOUT, "layout=aos fields=4 field=0"},
        {CP_FAMILY_GEMM, "variant=naive m=4096 n=4096 k=4096"},
        {CP_FAMILY_GATHER, "run=1 seed=1"},
        {CP_FAMILY_SMEM, "stride=1 width=4 op=load"},
        {CP_FAMILY_TRANSPOSE, "variant=naive m=8192 n=8192"},
        {CP_FAMILY_EXPR, "index=? width=4 op=load"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cp_config c = config_of(cases[i].f, 1u << 20);
        char buf[256];
        cp_config_describe(&c, buf, sizeof buf);
        if (strcmp(buf, cases[i].want) != 0)
            fprintf(stderr, "  %s: '%s', want '%s'\n", cp_config_family_name(cases[i].f), buf,
                    cases[i].want);
        CHECK(strcmp(buf, cases[i].want) == 0);
    }
    char small[8];
    cp_config c = config_of(CP_FAMILY_STRIDE, 1u << 20);
    cp_config_describe(&c, small, sizeof small); /* cut to fit */
    CHECK(strcmp(small, "stride=") == 0);
    c.family = CP_FAMILY_COUNT;
    cp_config_describe(&c, small, sizeof small);
    CHECK(strcmp(small, "?") == 0);
}

/* What init fills, what uses shared memory, which families count requests as instructions. */
static void test_hooks(void)
{
    cp_config s = config_of(CP_FAMILY_STRIDE, 1u << 20);
    CHECK_EQ_U64(s.elements, (1u << 20) / 4);
    cp_config g = config_of(CP_FAMILY_GEMM, 1u << 20);
    CHECK_EQ_U64(g.elements, 0);
    CHECK(!cp_config_uses_shared(&g));
    cp_gemm_config_of(&g)->variant = CP_GEMM_SMEM;
    CHECK(cp_config_uses_shared(&g));
    cp_config t = config_of(CP_FAMILY_TRANSPOSE, 0);
    CHECK(!cp_config_uses_shared(&t));
    cp_transpose_config_of(&t)->variant = CP_TRANSPOSE_PADDED;
    CHECK(cp_config_uses_shared(&t));
    cp_config m = config_of(CP_FAMILY_SMEM, 0);
    CHECK(m.elements > 0 && cp_smem_config_of(&m)->iterations > 0);
    CHECK(cp_config_uses_shared(&m));
    CHECK(cp_config_requests_are_instructions(&s));
    CHECK(cp_config_requests_are_instructions(&(cp_config){.family = CP_FAMILY_LAYOUT}));
    CHECK(!cp_config_requests_are_instructions(&g));
    CHECK(!cp_config_requests_are_instructions(&(cp_config){.family = CP_FAMILY_COUNT}));
    /* a field's name outside its names */
    const cp_family_field *op = cp_family_field_of(cp_family_get(CP_FAMILY_STRIDE), "op");
    cp_stride_config_of(&s)->op = CP_OP_COUNT;
    CHECK(op && strcmp(cp_family_field_name(op, &s), "?") == 0);
    /* the shared-memory width check refuses 32; the global one takes it */
    const cp_family_param *w = cp_family_param_named(cp_family_get(CP_FAMILY_SMEM), "--width");
    const cp_family_param *gw = cp_family_param_named(cp_family_get(CP_FAMILY_STRIDE), "--width");
    uint64_t v32 = 32;
    cp_sweep sw = {&v32, 1};
    cp_status st;
    cp_status_clear(&st);
    CHECK(w && w->check && w->check(&sw, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "of shared memory");
    cp_status_clear(&st);
    CHECK(gw && gw->check && gw->check(&sw, &st) == CP_EXIT_OK);
    CHECK(cp_family_param_named(cp_family_get(CP_FAMILY_GATHER), "--width") == NULL);
}

/* The one field table parses, prints and reads back: every number or name of a configuration
 * has a setter (a saved report's read-back goes through it, cp_report_load.c) that get() gives
 * back, but for a value derived from the others (offset_bytes), which has none. */
static void test_fields_set(void)
{
    for (int i = 0; i < CP_FAMILY_COUNT; i++) {
        const cp_family_desc *d = cp_family_get((cp_family)i);
        for (size_t k = 0; k < d->nfields; k++) {
            const cp_family_field *f = &d->fields[k];
            if (f->kind == CP_FIELD_INDEX || f->kind == CP_FIELD_PARAMS) {
                CHECK(f->set == NULL);
                continue;
            }
            if (strcmp(f->key, "offset_bytes") == 0) {
                CHECK(f->set == NULL);
                continue;
            }
            CHECK(f->set != NULL);
            if (!f->set)
                continue;
            cp_config c;
            memset(&c, 0, sizeof c);
            c.family = (cp_family)i;
            uint64_t v = f->kind == CP_FIELD_NAME ? f->nnames - 1 : 12345;
            f->set(&c, v);
            CHECK_EQ_U64(f->get(&c), v);
        }
    }
}

int main(void)
{
    test_fields_set();
    test_table_complete();
    test_describe();
    test_hooks();
    return cp_test_finish();
}
