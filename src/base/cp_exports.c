/* cp_exports.c: the reports written beside the main output, each through cp_output, committed
 * once all of them are written. */
#define _POSIX_C_SOURCE 200809L
#include "cp_exports.h"

#include <stdlib.h>
#include <string.h>

#include "cp_path.h"

const cp_exporter *cp_exporter_option(const cp_exporter *list, size_t n, size_t i)
{
    for (size_t e = 0; e < n; e++)
        if (list[e].help && i-- == 0)
            return &list[e];
    return NULL;
}

const cp_exporter *cp_exporter_of(const cp_exporter *list, size_t n, int format)
{
    for (size_t e = 0; e < n; e++)
        if (list[e].format == format)
            return &list[e];
    return NULL;
}

int cp_exports_same_destination(const char *a, const char *b)
{
    if (!a || !b)
        return 0;
    if (strcmp(a, b) == 0 || cp_path_same_file(a, b))
        return 1;
    /* neither exists yet: the same name in the same directory */
    const char *slash = strrchr(b, '/');
    const char *b_name = slash ? slash + 1 : b;
    char *b_dir = slash ? strndup(b, (size_t)(slash - b) + 1) : strdup(".");
    const char *a_name = NULL;
    int same =
        b_dir && *b_name && cp_path_in_directory(a, b_dir, &a_name) && strcmp(a_name, b_name) == 0;
    free(b_dir);
    return same;
}

int cp_exports_add(cp_exports *e, const char *option, const char *path, int format, cp_status *st)
{
    if (!path || !*path) {
        cp_status_set(st, CP_EXIT_USAGE, "--%s: empty file name", option);
        cp_status_hint(st, "give a file name, e.g. --%s report.%s", option, option);
        return CP_EXIT_USAGE;
    }
    if (strcmp(path, "-") == 0)
        return cp_status_usage(st, "write it to a file, or make it the main report with --format",
                               "--%s -: standard output takes the main report", option);
    char word[64];
    snprintf(word, sizeof word, "--%s", option);
    CP_TRY(cp_output_check_name(word, path, option, st));
    for (size_t i = 0; i < e->n; i++)
        if (cp_exports_same_destination(path, e->items[i].path))
            return cp_status_usage(st, "give each report a file of its own",
                                   "--%s '%s' names the file of --%s already", option, path,
                                   e->items[i].option);
    if (e->n == CP_EXPORTS_MAX)
        return cp_status_usage(st, "write fewer reports beside the main one",
                               "more than %d reports to write", CP_EXPORTS_MAX);
    e->items[e->n++] = (cp_export){.option = option, .path = path, .format = format};
    return CP_EXIT_OK;
}

int cp_exports_open(cp_exports *e, const char *main_path, cp_status *st)
{
    int to_stdout = !main_path || strcmp(main_path, "-") == 0;
    for (size_t i = 0; i < e->n; i++) {
        cp_export *x = &e->items[i];
        if (to_stdout && cp_output_is_stdout(x->path)) { /* /dev/stdout, /dev/fd/1, `> FILE` */
            cp_exports_abort(e);
            return cp_status_usage(st,
                                   "write it to another file, or make it the main report with "
                                   "--format",
                                   "--%s '%s' is standard output, which takes the main report",
                                   x->option, x->path);
        }
        if (!to_stdout && cp_exports_same_destination(x->path, main_path)) {
            cp_exports_abort(e);
            return cp_status_usage(st, "give each report a file of its own",
                                   "--%s '%s' names the file of -o already", x->option, x->path);
        }
        int rc = cp_output_open(&x->out, x->path, st);
        if (rc != CP_EXIT_OK) {
            cp_exports_abort(e);
            return rc;
        }
    }
    return CP_EXIT_OK;
}

int cp_exports_write(cp_exports *e, cp_exports_writer write, const void *what, cp_status *st)
{
    for (size_t i = 0; i < e->n; i++) {
        cp_export *x = &e->items[i];
        int rc = cp_output_begin(&x->out, st);
        if (rc == CP_EXIT_OK)
            rc = write(x->out.file, x->format, what, st);
        if (rc != CP_EXIT_OK) { /* a failed write: the output's message names the path */
            rc = cp_output_close(&x->out, rc, st);
            cp_exports_abort(e);
            return rc;
        }
    }
    return CP_EXIT_OK;
}

int cp_exports_commit(cp_exports *e, cp_status *st)
{
    for (size_t i = 0; i < e->n; i++) {
        int rc = cp_output_commit(&e->items[i].out, st);
        cp_output_abort(&e->items[i].out);
        if (rc != CP_EXIT_OK) {
            cp_exports_abort(e);
            return rc;
        }
    }
    return CP_EXIT_OK;
}

void cp_exports_abort(cp_exports *e)
{
    for (size_t i = 0; i < e->n; i++)
        cp_output_abort(&e->items[i].out);
}

int cp_exports_getopt(struct option *dst, size_t cap, const struct option *base,
                      const cp_exporter *(*get)(size_t i), int first_val)
{
    size_t k = 0;
    for (; base[k].name; k++) {
        if (k + 1 >= cap)
            return -1;
        dst[k] = base[k];
    }
    for (size_t i = 0; i < CP_EXPORTS_MAX && get(i); i++, k++) {
        if (k + 1 >= cap)
            return -1;
        dst[k] = (struct option){get(i)->option, required_argument, NULL, first_val + (int)i};
    }
    dst[k] = (struct option){NULL, 0, NULL, 0};
    return 0;
}
