/* cp_family.h: one descriptor per pattern family (each family's cp_<family>_family.c in
 * families/<family>/, listed by families/cp_families.def; cp_family.c finds them): its name and
 * help, the parameters it sweeps, the values of its configurations as the reports show them,
 * and its model. The command line, the plan, the model and every report writer read it. */
#ifndef CP_FAMILY_H
#define CP_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "base/cp_base.h"

/* The pattern families, in the order of the registry (families/cp_families.def, reached through
 * model's faces); the first is the default. */
typedef enum {
#define CP_FAMILY(NAME, name) CP_FAMILY_##NAME,
#include "cp_families.def"
#undef CP_FAMILY
    CP_FAMILY_COUNT
} cp_family;

typedef struct cp_config cp_config;

/* Parameters a family sweeps at most, and their options, all families together. */
#define CP_FAMILY_PARAMS_MAX 8
#define CP_PARAM_MAX 32

/* A swept parameter of one family, named by its option: its help, its default, its limits or
 * names, and where it goes in the family's own configuration. Families whose parameters have
 * the same option (--stride, --op, --variant) share that option of the command line; what it
 * means and takes for each is its family's entry. */
typedef struct cp_family_param {
    const char *option;       /* "--stride" */
    const char *arg;          /* the name of its value in help ("S", "BYTES") */
    const char *doc;          /* what it is (help; the values, range and default come after) */
    const char *default_spec; /* a sweep, as on the command line */
    uint64_t min, max;        /* numeric parameters */
    const char *const *names; /* named values (an enumeration), NULL for numbers */
    size_t nnames;
    void (*set)(cp_config *c, uint64_t v);
    /* Checks every value beyond its limits (NULL: nothing more); CP_EXIT_USAGE with a hint. */
    int (*check)(const cp_sweep *values, cp_status *st);
    int bytes; /* 1: a size in bytes, whose values take K, M and G suffixes */
} cp_family_param;

/* The parameters' options, all families together, each once: a cp_param is an option's index,
 * in the order of the registry and of each family's help (cp_family_desc.help_order), below
 * cp_param_count(). */
typedef size_t cp_param;

/* The count of the parameters' options, at most CP_PARAM_MAX. */
size_t cp_param_count(void);

/* The option of parameter p ("--stride"), "?" beyond cp_param_count(). */
const char *cp_param_option(cp_param p);

/* The parameter whose option is `option` ("--stride"); 0 when no family has one. */
int cp_param_find(const char *option, cp_param *p);

/* The index of a family's parameter ps among the options. */
cp_param cp_param_index(const cp_family_param *ps);

typedef enum {
    CP_FIELD_U64,    /* a number: get() */
    CP_FIELD_BYTES,  /* a number of bytes: get(), shown as the input spells it (4K, 64M) */
    CP_FIELD_NAME,   /* a named value: names[get()] */
    CP_FIELD_INDEX,  /* the expression's text */
    CP_FIELD_PARAMS, /* the expression's parameters and their values */
} cp_field_kind;

/* One value of a configuration as the reports show it. */
typedef struct cp_family_field {
    const char *key;    /* the JSON key of "config", the Vega-Lite field */
    const char *column; /* the CSV column (NULL: key) */
    const char *label;  /* in cp_config_describe and the table's header (NULL: key) */
    cp_field_kind kind;
    uint64_t (*get)(const cp_config *c);
    const char *const *names; /* CP_FIELD_NAME */
    size_t nnames;
    /* Sets the value a saved report gives back (a name as its index); NULL for a value derived
     * from the others (offset_bytes), which a report only checks, and for CP_FIELD_INDEX and
     * CP_FIELD_PARAMS. */
    void (*set)(cp_config *c, uint64_t v);
    /* the chart's axis title of a number, its unit in brackets ("stride (elements)"; NULL: its
     * key), and the unit its values are labelled with ("B"; NULL: none) */
    const char *title;
    const char *unit;
} cp_family_field;

/* Which columns of counts and times the table shows after the parameters. */
typedef enum {
    CP_COUNTS_SIDES,        /* load and store */
    CP_COUNTS_ACCESSES,     /* per access (3), load efficiency */
    CP_COUNTS_OPERANDS,     /* per operand (3), time in ms, GFLOP/s against cuBLAS */
    CP_COUNTS_SHARED,       /* the shared-memory side of the pattern */
    CP_COUNTS_SIDES_SHARED, /* load and store, global and shared */
    CP_COUNTS_PATH,         /* load and store; L1 and L2 hits, SM active, the load's SASS */
    CP_COUNTS_COPIES,       /* the tile's load (LSU or TMA), shared loads, SM active */
    CP_COUNTS_FAMILY,       /* its family counters (below), predicted and measured; time */
} cp_family_counts;

/* Counters a family declares for itself, at most this many: what its kernels do that no other
 * family's counts (an atomic's requests and sectors), each read through a CUPTI metric of its
 * own, or shown by the model alone. */
#define CP_FAMILY_COUNTERS_MAX 6

struct cp_prediction;

/* One family counter: every writer shows it as the family's columns, predicted beside measured,
 * and --check compares the two as it does the global requests and sectors. */
typedef struct cp_family_counter {
    const char *key;    /* snake_case: predicted.family_counters.KEY, measured.counters.
                         * family_counters.KEY of the JSON report, CSV pred_KEY and meas_KEY */
    const char *metric; /* the CUPTI metric that measures it (its sweeps add it to the profiler's
                         * set); NULL: the model's own value, never measured nor compared */
    const char *label;  /* the table's header, its top line ("atom") */
    const char *unit;   /* its bottom line and the chart's unit ("req", "sectors") */
    /* The predicted value for configuration c, whose prediction p the model has made (its
     * accesses counted, totals summed). */
    double (*predict)(const cp_config *c, const struct cp_prediction *p);
    /* A second metric for the configurations where metric_of(c) is 1 (an atomic's requests are
     * a reduction's when its result is unused: another counter, the same column); NULL: metric
     * for every configuration. */
    const char *alt_metric;
    int (*metric_of)(const cp_config *c);
} cp_family_counter;

/* The CUPTI metric that measures counter k for configuration c (its metric or alt_metric);
 * NULL for the model's own. */
const char *cp_family_counter_metric(const cp_family_counter *k, const cp_config *c);

#define CP_SHOWN_MAX 6 /* keys in `describe`, `table` or `chart` */

struct cp_family_model;

typedef struct cp_family_desc {
    const char *name;
    /* its help (coalprobe FAMILY --help, its section of --help and of the man page); the
     * parameters' defaults and ranges come from params[] */
    const char *summary;           /* one line: what a configuration does */
    const char *teaches;           /* what it shows: sentences, unwrapped */
    const char *size_doc;          /* what --size counts, when it applies */
    const cp_help_option *options; /* options of its own besides the parameters (expr) */
    size_t noptions;
    cp_help_example examples[2];
    const char *list;       /* what --list says under its parameters */
    const char *list_front; /* options --list shows before its swept parameters ("" none) */
    /* swept parameters, outermost first (the plan's order) */
    const cp_family_param *params;
    size_t nparams;
    /* the options of params[] in the order of its help and --list where that is not params[]'s
     * (those it leaves out follow, in params[]'s order) */
    const char *help_order[CP_FAMILY_PARAMS_MAX];
    uint64_t size_default; /* --size's default in bytes; 0: --size does not apply */
    const char *size_hint; /* when --size does not apply */
    int takes_index;       /* --index and --param: an index expression */
    /* Checks that combine its parameters (NULL: none): values[i] holds the values of
     * params[i]. */
    int (*check)(const cp_sweep *const values[], cp_status *st);
    /* Fills what the swept parameters leave (threads, iterations) from --size. */
    void (*init)(cp_config *c, uint64_t size_bytes);
    /* every value of a configuration, in the JSON report's order */
    const cp_family_field *fields;
    size_t nfields;
    const char *describe[CP_SHOWN_MAX]; /* keys, in cp_config_describe's order */
    const char *table[CP_SHOWN_MAX];    /* keys of the table's parameter columns */
    const char *chart[CP_SHOWN_MAX];    /* keys the chart's x axis is chosen from */
    cp_family_counts table_counts;
    /* its family counters (NULL, 0: none), in the order of its columns */
    const cp_family_counter *counters;
    size_t ncounters;
    /* 1: every global access is issued only by warps with an active lane */
    int requests_are_instructions;
    int (*uses_shared)(const cp_config *c); /* NULL: never */
    int path_counters; /* 1: its sweeps read the memory path's counters (cp_config.h) */
    /* A default that depends on the device (NULL: the parameters' default_spec always): writes
     * the sweep of its parameter p for a device with l2_bytes of L2 into spec; 0 when p's
     * default_spec stands. */
    int (*device_default)(const cp_family_param *p, uint64_t l2_bytes, char *spec, size_t len);
    /* its model's hooks (cp_model_family.h): cp_<family>_model, of its cp_<family>_model.c */
    const struct cp_family_model *model;
    /* Why configuration c does not exist (the plan leaves it out of the sweep), NULL when it
     * does; NULL: every configuration exists. */
    const char *(*absent)(const cp_config *c);
    /* The compute capability c's kernel needs, as major * 10 + minor (90: sm_90), 0 for any
     * GPU coalprobe runs on; NULL: 0. A GPU below it does not measure the configuration. */
    int (*needs_cc)(const cp_config *c);
    /* --explain: who copies what into which buffer, step by step (text of whole lines into buf,
     * len bytes); NULL: the family's kernel has no schedule worth drawing. */
    void (*schedule)(const cp_config *c, char *buf, size_t len);
} cp_family_desc;

/* The descriptor of family f, NULL when f is no family. */
const cp_family_desc *cp_family_get(cp_family f);

/* The compute capability configuration c's kernel needs (its family's needs_cc), 0 for any GPU
 * or for no family. */
int cp_family_needs_cc(const cp_config *c);

/* The family named `name`; 0 when there is none. */
int cp_family_find(const char *name, cp_family *f);

/* The descriptor's entry for parameter p, NULL when the family does not sweep it. */
const cp_family_param *cp_family_param_of(const cp_family_desc *d, cp_param p);

/* The descriptor's entry whose option is `option` ("--width"), NULL when it has none. */
const cp_family_param *cp_family_param_named(const cp_family_desc *d, const char *option);

/* The i-th parameter of d in the order of its help: those help_order names, in its order, then
 * the others in params[]'s order; NULL from nparams on. */
const cp_family_param *cp_family_help_param(const cp_family_desc *d, size_t i);

/* The field of d with key `key`, NULL when d has none. */
const cp_family_field *cp_family_field_of(const cp_family_desc *d, const char *key);

/* The value of field f of c as a name ("?" outside the names). */
const char *cp_family_field_name(const cp_family_field *f, const cp_config *c);

/* The label of field f (its key unless it has one). */
const char *cp_family_field_label(const cp_family_field *f);

/* 1 when field f is a number (CP_FIELD_U64, CP_FIELD_BYTES): JSON and CSV write it as one. */
int cp_family_field_number(const cp_family_field *f);

/* The value of number field f of c as the text table and a description show it: bytes as the
 * input spells them (4K, 64M), other numbers in decimal. */
void cp_family_field_format(const cp_family_field *f, const cp_config *c, char *buf, size_t len);

#endif
