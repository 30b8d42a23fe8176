/* cp_config.c: names and descriptions of configurations. */
#include "cp_config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cp_expr.h"
#include "cp_family.h"

const char *const cp_config_op_names[CP_OP_COUNT] = {"load", "store"};

const char *cp_config_family_name(cp_family f)
{
    const cp_family_desc *d = cp_family_get(f);
    return d ? d->name : "?";
}

const char *cp_config_op_name(cp_op op)
{
    return op < CP_OP_COUNT ? cp_config_op_names[op] : "?";
}

cp_op cp_config_op(const cp_config *c)
{
    const cp_family_desc *d = cp_family_get(c->family);
    const cp_family_field *f = d ? cp_family_field_of(d, "op") : NULL;
    return f && f->get(c) == CP_OP_STORE ? CP_OP_STORE : CP_OP_LOAD;
}

int cp_config_requests_are_instructions(const cp_config *c)
{
    const cp_family_desc *d = cp_family_get(c->family);
    return d && d->requests_are_instructions;
}

int cp_config_uses_shared(const cp_config *c)
{
    const cp_family_desc *d = cp_family_get(c->family);
    return d && d->uses_shared && d->uses_shared(c);
}

int cp_config_path_counters(const cp_config *c)
{
    const cp_family_desc *d = cp_family_get(c->family);
    return d && d->path_counters;
}

uint64_t cp_config_elements_for_size(uint64_t size_bytes, uint32_t width_bytes)
{
    return width_bytes ? size_bytes / width_bytes : 0;
}

void cp_config_format_params(const cp_config *c, const char *sep, char *buf, unsigned long len)
{
    unsigned long k = 0;
    buf[0] = '\0';
    for (uint32_t p = 0; p < c->nexpr_params && k < len; p++) {
        int n = snprintf(buf + k, len - k, "%s%s=%" PRId64, p ? sep : "",
                         cp_expr_param_name(c->expr, p), c->expr_params[p]);
        k += n > 0 ? (unsigned long)n : 0;
    }
}

/* The family's describe keys as label=value joined by spaces; the expression's parameters as
 * their own name=value pairs, left out when there are none. */
void cp_config_describe(const cp_config *c, char *buf, unsigned long len)
{
    const cp_family_desc *d = cp_family_get(c->family);
    if (!d) {
        snprintf(buf, len, "?");
        return;
    }
    unsigned long k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < CP_SHOWN_MAX && d->describe[i] && k < len; i++) {
        const cp_family_field *f = cp_family_field_of(d, d->describe[i]);
        const char *sep = k ? " " : "";
        int n = 0;
        if (cp_family_field_number(f)) {
            char v[32];
            cp_family_field_format(f, c, v, sizeof v);
            n = snprintf(buf + k, len - k, "%s%s=%s", sep, cp_family_field_label(f), v);
        } else if (f->kind == CP_FIELD_NAME) {
            n = snprintf(buf + k, len - k, "%s%s=%s", sep, cp_family_field_label(f),
                         cp_family_field_name(f, c));
        } else if (f->kind == CP_FIELD_INDEX) {
            n = snprintf(buf + k, len - k, "%s%s=%s", sep, cp_family_field_label(f),
                         c->expr ? cp_expr_text(c->expr) : "?");
        } else {
            char params[CP_EXPR_MAX_PARAMS * 64];
            cp_config_format_params(c, " ", params, sizeof params);
            if (params[0])
                n = snprintf(buf + k, len - k, "%s%s", sep, params);
        }
        k += n > 0 ? (unsigned long)n : 0;
    }
}
