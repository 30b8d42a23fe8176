/* cp_config.c: names and descriptions of configurations. */
#include "cp_config.h"

#include <inttypes.h>
#include <stdio.h>

#include "cp_expr.h"

const char *cp_config_family_name(cp_family f)
{
    static const char *const names[] = {"stride", "layout",    "gemm", "gather",
                                        "smem",   "transpose", "expr"};
    return f < CP_FAMILY_COUNT ? names[f] : "?";
}

const char *cp_config_op_name(cp_op op)
{
    static const char *const names[] = {"load", "store"};
    return op < CP_OP_COUNT ? names[op] : "?";
}

const char *cp_config_layout_name(cp_layout l)
{
    static const char *const names[] = {"aos", "soa"};
    return l < CP_LAYOUT_COUNT ? names[l] : "?";
}

const char *cp_config_variant_name(cp_gemm_variant v)
{
    static const char *const names[] = {"naive", "coalesced", "smem", "cublas"};
    return v < CP_GEMM_COUNT ? names[v] : "?";
}

const char *cp_config_transpose_name(cp_transpose_variant v)
{
    static const char *const names[] = {"naive", "tiled", "padded"};
    return v < CP_TRANSPOSE_COUNT ? names[v] : "?";
}

int cp_config_requests_are_instructions(const cp_config *c)
{
    return c->family == CP_FAMILY_STRIDE || c->family == CP_FAMILY_LAYOUT;
}

int cp_config_uses_shared(const cp_config *c)
{
    switch (c->family) {
    case CP_FAMILY_SMEM:
        return 1;
    case CP_FAMILY_TRANSPOSE:
        return c->transpose != CP_TRANSPOSE_NAIVE;
    case CP_FAMILY_GEMM:
        return c->variant == CP_GEMM_SMEM;
    default:
        return 0;
    }
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

void cp_config_describe(const cp_config *c, char *buf, unsigned long len)
{
    switch (c->family) {
    case CP_FAMILY_STRIDE:
        snprintf(buf, len, "stride=%" PRIu64 " offset=%" PRIu64 " width=%u op=%s", c->stride,
                 c->offset, (unsigned)c->width_bytes, cp_config_op_name(c->op));
        break;
    case CP_FAMILY_LAYOUT:
        snprintf(buf, len, "layout=%s fields=%u field=%u", cp_config_layout_name(c->layout),
                 (unsigned)c->fields, (unsigned)c->field);
        break;
    case CP_FAMILY_GEMM:
        snprintf(buf, len, "variant=%s m=%" PRIu64 " n=%" PRIu64 " k=%" PRIu64,
                 cp_config_variant_name(c->variant), c->m, c->n, c->k);
        break;
    case CP_FAMILY_GATHER:
        snprintf(buf, len, "run=%" PRIu64 " seed=%" PRIu64, c->run, c->seed);
        break;
    case CP_FAMILY_SMEM:
        snprintf(buf, len, "stride=%" PRIu64 " width=%u op=%s", c->stride, (unsigned)c->width_bytes,
                 cp_config_op_name(c->op));
        break;
    case CP_FAMILY_TRANSPOSE:
        snprintf(buf, len, "variant=%s m=%" PRIu64 " n=%" PRIu64,
                 cp_config_transpose_name(c->transpose), c->m, c->n);
        break;
    case CP_FAMILY_EXPR: {
        char params[CP_EXPR_MAX_PARAMS * 64];
        cp_config_format_params(c, " ", params, sizeof params);
        snprintf(buf, len, "index=%s width=%u op=%s%s%s", c->expr ? cp_expr_text(c->expr) : "?",
                 (unsigned)c->width_bytes, cp_config_op_name(c->op), params[0] ? " " : "", params);
        break;
    }
    default:
        snprintf(buf, len, "?");
    }
}
