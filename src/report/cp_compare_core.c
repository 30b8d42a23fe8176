/* cp_compare_core.c: the comparison every kind of report shares: items matched by key, their
 * metrics judged, the items of one report only listed, written as text or JSON. */
#include "cp_compare_core.h"
#include "cp_json_read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const cp_compare_verdict_json[CP_COMPARE_NVERDICTS] = {
    "same", "not_comparable", "improved", "regressed", "changed"};
static const char *const cp_compare_verdict_text[CP_COMPARE_NVERDICTS] = {
    "same", "not comparable", "improved", "REGRESSED", "changed"};

int cp_compare_change(const cp_compare_metric *m, double *change)
{
    if (m->base == 0 || !isfinite(m->base) || !isfinite(m->now))
        return 0;
    *change = (m->now - m->base) / m->base;
    return isfinite(*change);
}

/* Appends name to out (", " between names) unless it is there already. */
static void cp_compare_add_device(const cJSON *name, char *out, size_t n)
{
    if (!cJSON_IsString(name) || !name->valuestring[0])
        return;
    for (const char *at = out; (at = strstr(at, name->valuestring)) != NULL; at++) {
        size_t len = strlen(name->valuestring);
        if ((at == out || at[-1] == ' ') && (at[len] == '\0' || at[len] == ','))
            return;
    }
    size_t used = strlen(out);
    snprintf(out + used, n - used, "%s%s", used ? ", " : "", name->valuestring);
}

void cp_compare_devices_of(const cJSON *root, char *out, size_t n)
{
    out[0] = '\0';
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
    cp_compare_add_device(cJSON_GetObjectItemCaseSensitive(dev, "name"), out, n);
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(root, "devices"))
        cp_compare_add_device(cJSON_GetObjectItemCaseSensitive(d, "name"), out, n);
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(root, "processes"))
        cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(p, "devices"))
            cp_compare_add_device(cJSON_GetObjectItemCaseSensitive(d, "name"), out, n);
}

/* Frees the items of s (not s->report) and empties them. */
static void cp_compare_side_free(cp_compare_side *s)
{
    for (size_t i = 0; s->items && i < s->n; i++) {
        free(s->items[i].key);
        free(s->items[i].values);
    }
    free(s->items);
    free(s->total.key);
    free(s->total.values);
    s->items = NULL;
    s->n = 0;
    s->total = (cp_compare_item){0};
}

/* ---- matching ------------------------------------------------------------------------------ */

static int cp_compare_item_order(const void *a, const void *b)
{
    const cp_compare_item *x = *(const cp_compare_item *const *)a;
    const cp_compare_item *y = *(const cp_compare_item *const *)b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    return (x > y) - (x < y); /* equal keys in the order of the items */
}

/* The items of s, sorted by key and then position; NULL when memory runs out. */
static const cp_compare_item **cp_compare_sorted(const cp_compare_side *s)
{
    const cp_compare_item **sorted = malloc((s->n ? s->n : 1) * sizeof *sorted);
    if (!sorted)
        return NULL;
    for (size_t i = 0; i < s->n; i++)
        sorted[i] = &s->items[i];
    qsort(sorted, s->n, sizeof *sorted, cp_compare_item_order);
    return sorted;
}

/* partner[i]: the item of now matched to base item i, or NULL; taken_now[j]: 1 when now's item j
 * is matched. Equal keys pair up in the order of the items. */
static int cp_compare_match(const cp_compare_side *base, const cp_compare_side *now,
                            const cp_compare_item **partner, unsigned char *taken_now)
{
    const cp_compare_item **b = cp_compare_sorted(base), **n = cp_compare_sorted(now);
    if (b && n) {
        size_t i = 0, j = 0;
        while (i < base->n && j < now->n) {
            int c = strcmp(b[i]->key, n[j]->key);
            if (c == 0) {
                partner[b[i] - base->items] = n[j];
                taken_now[n[j] - now->items] = 1;
            }
            i += c <= 0;
            j += c >= 0;
        }
    }
    int ok = b && n;
    free(b);
    free(n);
    return ok;
}

/* ---- judging ------------------------------------------------------------------------------- */

/* An exact metric must not change; another must not get worse beyond the tolerance. */
static cp_compare_verdict cp_compare_judge(cp_compare_sense sense, double base, double now,
                                           double tolerance)
{
    if (sense == CP_COMPARE_EXACT)
        return base == now ? CP_COMPARE_SAME : CP_COMPARE_CHANGED;
    int above = now > base * (1 + tolerance), below = now < base * (1 - tolerance);
    if (!above && !below)
        return CP_COMPARE_SAME;
    return above == (sense == CP_COMPARE_LOWER) ? CP_COMPARE_REGRESSED : CP_COMPARE_IMPROVED;
}

/* A matched pair, judged: every metric both items have, in the base's order. */
typedef struct cp_compare_pair {
    const cp_compare_item *base, *now;
    cp_compare_metric *metrics;
    size_t nmetrics;
    cp_compare_verdict status;
    const char *note; /* why the pair is not comparable; NULL when it is */
} cp_compare_pair;

/* Judges p (its metrics in m, room for p->base->nvalues). */
static void cp_compare_judge_pair(const cp_compare_kind *kind, cp_compare_pair *p,
                                  cp_compare_metric *m, double tolerance, int other_card)
{
    int card_differs = 0;
    p->metrics = m;
    p->nmetrics = 0;
    p->status = CP_COMPARE_SAME;
    p->note = NULL;
    for (size_t i = 0; i < p->base->nvalues; i++) {
        const cp_compare_value *b = &p->base->values[i], *n = NULL;
        for (size_t j = 0; j < p->now->nvalues && !n; j++)
            if (p->now->values[j].def == b->def)
                n = &p->now->values[j];
        if (!n)
            continue;
        cp_compare_metric *x = &m[p->nmetrics++];
        *x = (cp_compare_metric){b->def,  b->v,
                                 n->v,    cp_compare_judge(b->def->sense, b->v, n->v, tolerance),
                                 b->text, n->text};
        int same = b->def->sense == CP_COMPARE_EXACT && b->text && n->text
                       ? cp_json_read_same_number(b->text, n->text)
                       : -1; /* whole numbers past 2^53 differ where their doubles do not */
        if (same >= 0)
            x->verdict = same ? CP_COMPARE_SAME : CP_COMPARE_CHANGED;
        if (other_card && b->def->card && x->verdict != CP_COMPARE_SAME) {
            x->verdict = CP_COMPARE_NOT_COMPARABLE; /* another card's count, not a regression */
            card_differs = 1;
        }
        if (x->verdict > p->status)
            p->status = x->verdict;
    }
    if (kind->mode_notes && p->base->mode != p->now->mode) {
        p->note = kind->mode_notes[p->base->mode];
        if (p->status < CP_COMPARE_NOT_COMPARABLE)
            p->status = CP_COMPARE_NOT_COMPARABLE;
    }
    if (card_differs && !p->note && kind->mode_notes)
        p->note = "its measured counts come from different GPUs";
}

/* ---- writing ------------------------------------------------------------------------------- */

/* The state of one comparison being written. */
typedef struct cp_compare_writer {
    const cp_compare_kind *kind;
    const cp_compare_side *base, *now;
    double tolerance;
    int other_card; /* both reports name their GPUs, and they differ */
    char tolerance_text[32];
    FILE *out;
    int json;
    cp_json j;
    cJSON *root, *rows;
    size_t nstatus[CP_COMPARE_NVERDICTS];
    size_t matched, text_rows;
    cp_strbuf line;
} cp_compare_writer;

/* The item in words, in w->line. */
static const char *cp_compare_describe(cp_compare_writer *w, const cp_compare_item *item)
{
    cp_strbuf_reset(&w->line);
    w->kind->text_id(&w->line, item);
    return cp_strbuf_text(&w->line, "?");
}

/* One metric's line, built whole in w->line: however large its numbers, nothing is cut. */
static void cp_compare_text_metric(cp_compare_writer *w, const cp_compare_metric *m, int width)
{
    cp_strbuf *b = &w->line;
    cp_strbuf_reset(b);
    cp_strbuf_printf(b, "  %-*s  ", width, m->def->name);
    w->kind->text_values(b, m);
    cp_strbuf_printf(b, ")  %s\n", cp_compare_verdict_text[m->verdict]);
    fputs(cp_strbuf_text(b, "  ?\n"), w->out);
}

/* Text: the item (or the title of the whole) and each metric that is not the same; nothing
 * for a pair that is the same. */
static void cp_compare_text_pair(cp_compare_writer *w, const cp_compare_pair *p, const char *title)
{
    if (p->status == CP_COMPARE_SAME)
        return;
    if (w->text_rows++ == 0)
        fputc('\n', w->out);
    fprintf(w->out, "%s\n", title ? title : cp_compare_describe(w, p->base));
    int width = w->kind->name_width;
    for (size_t i = 0; i < p->nmetrics && !w->kind->name_width; i++) {
        int len = (int)strlen(p->metrics[i].def->name);
        if (p->metrics[i].verdict != CP_COMPARE_SAME && len > width)
            width = len;
    }
    for (size_t i = 0; i < p->nmetrics; i++)
        if (p->metrics[i].verdict != CP_COMPARE_SAME)
            cp_compare_text_metric(w, &p->metrics[i], width);
    if (p->note)
        fprintf(w->out, "  not comparable: %s\n", p->note);
}

/* JSON: the status, the note when the kind has modes, and every metric, added to o. */
static void cp_compare_json_pair(cp_compare_writer *w, cJSON *o, const cp_compare_pair *p)
{
    cp_json *j = &w->j;
    cp_json_string(j, o, "status", cp_compare_verdict_json[p->status]);
    if (w->kind->mode_notes)
        cp_json_string(j, o, "note", p->note);
    cJSON *metrics = cp_json_array(j, o, "metrics");
    for (size_t i = 0; i < p->nmetrics; i++) {
        const cp_compare_metric *m = &p->metrics[i];
        cJSON *item = cp_json_append(j, metrics);
        if (!item)
            continue;
        double change = NAN;
        if (!cp_compare_change(m, &change))
            change = NAN;
        cp_json_string(j, item, "name", m->def->name);
        cp_json_number(j, item, "base", m->base);
        cp_json_number(j, item, "new", m->now);
        cp_json_number(j, item, "change", change);
        cp_json_string(j, item, "verdict", cp_compare_verdict_json[m->verdict]);
    }
}

/* An item in a JSON array: a new object with the item's identifying members. */
static cJSON *cp_compare_json_item(cp_compare_writer *w, cJSON *list, const cp_compare_item *item)
{
    cJSON *o = cp_json_append(&w->j, list);
    if (o)
        w->kind->json_id(&w->j, o, item);
    return o;
}

/* The items of s that have no partner: counted, then listed. */
static size_t cp_compare_write_unmatched(cp_compare_writer *w, const cp_compare_side *s,
                                         const unsigned char *matched, const char *title,
                                         const char *json_key)
{
    size_t count = 0;
    for (size_t i = 0; i < s->n; i++)
        count += !matched[i];
    cJSON *list = w->json ? cp_json_array(&w->j, w->root, json_key) : NULL;
    if (!w->json && count)
        fprintf(w->out, "\n%s: %zu%s\n", title, count, w->kind->count_words[count != 1]);
    for (size_t i = 0; i < s->n; i++) {
        if (matched[i])
            continue;
        if (w->json)
            cp_compare_json_item(w, list, &s->items[i]);
        else
            fprintf(w->out, "  %s\n", cp_compare_describe(w, &s->items[i]));
    }
    return count;
}

static void cp_compare_write_header(cp_compare_writer *w)
{
    const cp_compare_side *sides[2] = {w->base, w->now};
    if (w->json) {
        cp_json *j = &w->j;
        w->root = cp_json_check(j, cJSON_CreateObject());
        cp_json_number(j, w->root, "schema_version", w->kind->schema_version);
        if (w->kind->json_kind)
            cp_json_string(j, w->root, "kind", w->kind->json_kind);
        cJSON *tool = cp_json_object(j, w->root, "tool");
        cp_json_string(j, tool, "name", "coalprobe");
        cp_json_string(j, tool, "version", CP_VERSION);
        cp_json_string(j, w->root, "base", w->base->path);
        cp_json_string(j, w->root, "new", w->now->path);
        cp_json_number(j, w->root, "tolerance", w->tolerance);
        cp_json_bool(j, w->root, "base_incomplete", w->base->incomplete);
        cp_json_bool(j, w->root, "new_incomplete", w->now->incomplete);
        cp_json_string(j, w->root, "base_device", w->base->device[0] ? w->base->device : NULL);
        cp_json_string(j, w->root, "new_device", w->now->device[0] ? w->now->device : NULL);
        w->rows = cp_json_array(j, w->root, "rows");
        return;
    }
    for (int i = 0; i < 2; i++) {
        fputs(i ? "new:  " : "base: ", w->out);
        cp_text_put_printable(w->out, sides[i]->path);
        fputs(sides[i]->incomplete ? w->kind->incomplete_note : "", w->out);
        fputs(" (GPU: ", w->out);
        cp_text_put_printable(w->out, sides[i]->device[0] ? sides[i]->device : "none");
        fputs(")\n", w->out);
    }
}

/* Judges and writes every matched pair, in the base's order; returns 0 when memory runs out. */
static int cp_compare_write_pairs(cp_compare_writer *w, const cp_compare_item *const *partner)
{
    size_t most = 0;
    for (size_t i = 0; i < w->base->n; i++)
        if (w->base->items[i].nvalues > most)
            most = w->base->items[i].nvalues;
    cp_compare_metric *m = malloc((most ? most : 1) * sizeof *m);
    if (!m)
        return 0;
    for (size_t i = 0; i < w->base->n; i++) {
        if (!partner[i])
            continue;
        cp_compare_pair p = {.base = &w->base->items[i], .now = partner[i]};
        cp_compare_judge_pair(w->kind, &p, m, w->tolerance, w->other_card);
        w->matched++;
        w->nstatus[p.status]++;
        if (w->json)
            cp_compare_json_pair(w, cp_compare_json_item(w, w->rows, p.base), &p);
        else
            cp_compare_text_pair(w, &p, NULL);
    }
    free(m);
    return 1;
}

/* The whole reports' metrics, judged and written; their status. */
static cp_compare_verdict cp_compare_write_total(cp_compare_writer *w, int *failed)
{
    const cp_compare_item *b = &w->base->total;
    if (!w->kind->total_title)
        return CP_COMPARE_SAME;
    cp_compare_metric *m = malloc((b->nvalues ? b->nvalues : 1) * sizeof *m);
    if (!m) {
        *failed = 1;
        return CP_COMPARE_SAME;
    }
    cp_compare_pair p = {.base = b, .now = &w->now->total};
    cp_compare_judge_pair(w->kind, &p, m, w->tolerance, w->other_card);
    if (w->json)
        cp_compare_json_pair(w, cp_json_object(&w->j, w->root, w->kind->total_json_key), &p);
    else
        cp_compare_text_pair(w, &p, w->kind->total_title);
    free(m);
    return p.status;
}

/* The text line on the matched items that are the same, which have no line of their own. */
static void cp_compare_text_same(cp_compare_writer *w)
{
    size_t same = w->nstatus[CP_COMPARE_SAME];
    if (w->matched == 0) {
        fprintf(w->out, "\n%s\n", w->kind->none_matched);
    } else if (same) {
        if (w->text_rows == 0)
            fputc('\n', w->out);
        w->kind->text_same(w->out, same, w->matched, w->tolerance_text);
    }
}

static void cp_compare_write_summary(cp_compare_writer *w, size_t regressed,
                                     cp_compare_verdict total, size_t only_base, size_t only_new)
{
    const size_t *s = w->nstatus;
    if (w->json) {
        cJSON *sum = cp_json_object(&w->j, w->root, "summary");
        cp_json_number(&w->j, sum, "regressed", (double)regressed);
        cp_json_number(&w->j, sum, "improved", (double)s[CP_COMPARE_IMPROVED]);
        cp_json_number(&w->j, sum, "same", (double)s[CP_COMPARE_SAME]);
        if (w->kind->mode_notes)
            cp_json_number(&w->j, sum, "not_comparable", (double)s[CP_COMPARE_NOT_COMPARABLE]);
        cp_json_number(&w->j, sum, "only_in_base", (double)only_base);
        cp_json_number(&w->j, sum, "only_in_new", (double)only_new);
        cp_json_bool(&w->j, w->root, "regressed", regressed || total >= CP_COMPARE_REGRESSED);
        return;
    }
    fprintf(w->out, "\ncompare: %zu regressed, %zu improved, %zu same, ", regressed,
            s[CP_COMPARE_IMPROVED], s[CP_COMPARE_SAME]);
    if (s[CP_COMPARE_NOT_COMPARABLE])
        fprintf(w->out, "%zu not comparable, ", s[CP_COMPARE_NOT_COMPARABLE]);
    fprintf(w->out, "%zu only in base, %zu only in new", only_base, only_new);
    if (w->kind->total_title)
        fprintf(w->out, "; %s %s", w->kind->total_words, cp_compare_verdict_text[total]);
    fprintf(w->out, " (tolerance %s)\n", w->tolerance_text);
}

/* Prints the JSON document (pretty, then a newline) or reports the failure to build it. */
static int cp_compare_json_emit(cp_compare_writer *w, cp_status *st)
{
    char *text = cp_json_finish(&w->j, w->root);
    w->root = NULL;
    if (!text)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot build the comparison: %s",
                             cp_json_why(&w->j));
    fputs(text, w->out);
    fputc('\n', w->out);
    cJSON_free(text);
    return CP_EXIT_OK;
}

/* Writes the comparison: matched pairs in the base's order, the whole, then the items of one
 * report only. */
static int cp_compare_write(cp_compare_writer *w, const cp_compare_item *const *partner,
                            const unsigned char *taken_base, const unsigned char *taken_now,
                            cp_status *st)
{
    errno = 0;
    cp_compare_write_header(w);
    int failed = !cp_compare_write_pairs(w, partner);
    cp_compare_verdict total = failed ? CP_COMPARE_SAME : cp_compare_write_total(w, &failed);
    if (failed) {
        cJSON_Delete(w->root);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing reports");
    }
    if (!w->json)
        cp_compare_text_same(w);
    if (w->kind->changes &&
        !w->kind->changes(w->base->report, w->now->report, w->json, w->out, &w->j, w->root)) {
        cJSON_Delete(w->root);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing reports");
    }
    size_t only_base = cp_compare_write_unmatched(w, w->base, taken_base,
                                                  "only in base (missing in new)", "only_in_base");
    size_t only_new =
        cp_compare_write_unmatched(w, w->now, taken_now, "only in new", "only_in_new");
    size_t regressed = w->nstatus[CP_COMPARE_REGRESSED] + w->nstatus[CP_COMPARE_CHANGED];
    cp_compare_write_summary(w, regressed, total, only_base, only_new);
    int rc = w->json ? cp_compare_json_emit(w, st) : CP_EXIT_OK;
    if (rc == CP_EXIT_OK && w->line.failed)
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while writing the comparison");
    if (rc == CP_EXIT_OK && (fflush(w->out) != 0 || ferror(w->out)))
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "cannot write the comparison: %s",
                           strerror(errno ? errno : EIO));
    int total_regressed = total >= CP_COMPARE_REGRESSED;
    if (rc == CP_EXIT_OK && (regressed || total_regressed)) {
        rc = cp_status_set(st, CP_EXIT_MISMATCH,
                           "%zu of %zu matched %s regressed%s%s (tolerance %s)", regressed,
                           w->matched, w->kind->items_words, total_regressed ? ", and " : "",
                           total_regressed ? w->kind->total_words : "", w->tolerance_text);
        cp_status_hint(st, "%s", w->kind->hint);
    }
    return rc;
}

/* Matches the items of base and now, judges them and writes the comparison. */
static int cp_compare_sides(const cp_compare_kind *kind, const cp_compare_side *base,
                            const cp_compare_side *now, double tolerance, int json, FILE *out,
                            cp_status *st)
{
    const cp_compare_item **partner = calloc(base->n ? base->n : 1, sizeof *partner);
    unsigned char *taken_base = calloc(base->n ? base->n : 1, 1);
    unsigned char *taken_now = calloc(now->n ? now->n : 1, 1);
    int rc = CP_EXIT_OK;
    if (!partner || !taken_base || !taken_now || !cp_compare_match(base, now, partner, taken_now))
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing reports");
    if (rc == CP_EXIT_OK) {
        for (size_t i = 0; i < base->n; i++)
            taken_base[i] = partner[i] != NULL;
        cp_compare_writer w = {.kind = kind,
                               .base = base,
                               .now = now,
                               .tolerance = tolerance,
                               .out = out,
                               .json = json};
        snprintf(w.tolerance_text, sizeof w.tolerance_text, "%g%%", tolerance * 100);
        w.other_card = base->device[0] && now->device[0] && strcmp(base->device, now->device) != 0;
        if (w.other_card) {
            fputs("coalprobe: warning: the ", stderr);
            cp_compare_say_other_gpu(stderr, base->device, now->device, cp_text_put_printable);
            fputc('\n', stderr);
        }
        rc = cp_compare_write(&w, partner, taken_base, taken_now, st);
        cp_strbuf_free(&w.line);
    }
    free(partner);
    free(taken_base);
    free(taken_now);
    return rc;
}

int cp_compare_run(const cp_compare_kind *kind, const char *base_path, const char *new_path,
                   double tolerance, int json, FILE *out, cp_status *st)
{
    if (!(tolerance >= 0 && tolerance <= 1))
        return cp_status_set(st, CP_EXIT_USAGE, "tolerance %g is outside 0..1 (0%%..100%%)",
                             tolerance);
    cp_compare_side sides[2] = {{.path = base_path}, {.path = new_path}};
    int rc = CP_EXIT_OK;
    for (int i = 0; i < 2 && rc == CP_EXIT_OK; i++) {
        sides[i].report = calloc(1, kind->report_size);
        rc = sides[i].report ? kind->load(sides[i].report, sides[i].path, st)
                             : cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing '%s'",
                                             sides[i].path);
        if (rc == CP_EXIT_OK)
            rc = kind->items(sides[i].report, &sides[i], st);
    }
    if (rc == CP_EXIT_OK)
        rc = cp_compare_sides(kind, &sides[0], &sides[1], tolerance, json, out, st);
    for (int i = 0; i < 2; i++) {
        cp_compare_side_free(&sides[i]);
        if (sides[i].report)
            kind->unload(sides[i].report);
        free(sides[i].report);
    }
    return rc;
}

void cp_compare_say_other_gpu(FILE *out, const char *base, const char *now,
                              void (*put)(FILE *, const char *))
{
    fputs("reports come from different GPUs (base: ", out);
    put(out, base);
    fputs("; new: ", out);
    put(out, now);
    fputs("): their measured counts are compared as not comparable, never as regressions; the "
          "model's predictions still must be equal (docs/compare.md)",
          out);
}
