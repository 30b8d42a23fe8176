/* cp_html.c: the page (--format html): the HTML around the tables, the report embedded as JSON
 * that no string can break out of, the page's facts (kind, family keys, when and where it was
 * written), a trace's source files, and web/page/'s style and script, built into the binary. */
#define _XOPEN_SOURCE 700 /* gethostname, open_memstream, realpath */
#include "cp_compare_core.h"
#include "cp_html.h"
#include "cp_html_page.h"
#include "cp_report.h"
#include "cp_report_kinds.h"
#include "cp_report_util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cp_html_page_source.h" /* generated from web/page/ by CMakeLists.txt */

/* A trace page embeds at most this many source files, each of at most this many bytes. */
#define CP_HTML_MAX_SOURCES 32
#define CP_HTML_MAX_SOURCE_BYTES (4u << 20)

void cp_html_put_text(FILE *out, const char *text)
{
    for (const char *p = text ? text : ""; *p; p++) {
        switch (*p) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            fputc(*p, out);
        }
    }
}

void cp_html_put_json(FILE *out, const char *json, size_t len)
{
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char b = (unsigned char)json[i];
        if (b != '<' && b != '>' && b != '&' && b != 0xE2) /* the common case first */
            continue;
        const char *esc = NULL;
        size_t skip = 1;
        unsigned char c = (unsigned char)json[i];
        if (c == '<')
            esc = "\\u003c";
        else if (c == '>')
            esc = "\\u003e";
        else if (c == '&')
            esc = "\\u0026";
        else if (c == 0xE2 && i + 2 < len && (unsigned char)json[i + 1] == 0x80 &&
                 ((unsigned char)json[i + 2] == 0xA8 || (unsigned char)json[i + 2] == 0xA9)) {
            esc = (unsigned char)json[i + 2] == 0xA8 ? "\\u2028" : "\\u2029";
            skip = 3;
        }
        if (!esc)
            continue;
        fwrite(json + from, 1, i - from, out);
        fputs(esc, out);
        i += skip - 1;
        from = i + 1;
    }
    fwrite(json + from, 1, len - from, out);
}

/* The kinds of page: the page's kind (data-kind, the script's switch), its title, its tables. */
static const struct {
    const char *name, *title;
    void (*tables)(FILE *out, const cJSON *doc, const cJSON *columns);
} cp_html_pages[] = {
    [CP_HTML_SWEEP] = {"sweep", "sweep", cp_html_write_sweep_tables},
    [CP_HTML_TRACE] = {"trace", "trace", cp_html_write_trace_tables},
    [CP_HTML_COMPARE] = {"compare", "comparison", cp_html_write_compare_tables},
};

/* Which page doc makes; -1 when it is no document coalprobe writes a page of. */
static int cp_html_kind_of(const cJSON *doc)
{
    const cp_report_kind_desc *named = cp_report_kind_of(doc);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
    if (named && named->page >= 0)
        return named->page;
    if (!cJSON_IsArray(rows))
        return -1;
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "base")) &&
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "new")))
        return CP_HTML_COMPARE;
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "command")) &&
        !cJSON_GetObjectItemCaseSensitive(doc, "error"))
        return CP_HTML_SWEEP;
    return -1;
}

/* "2026-11-26 10:04 UTC" of now, or of SOURCE_DATE_EPOCH when set (a reproducible page). */
static void cp_html_date(char *buf, size_t len)
{
    const char *epoch = getenv("SOURCE_DATE_EPOCH");
    time_t t = epoch && *epoch ? (time_t)strtoll(epoch, NULL, 10) : time(NULL);
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm))
        snprintf(buf, len, "?");
}

/* One line on standard error naming the source files the page leaves out (it goes to others). */
static void cp_html_say_left_out(const cJSON *left_out)
{
    int n = cJSON_GetArraySize(left_out);
    fprintf(stderr,
            "coalprobe: note: the page leaves out %d source file%s it was not sure to "
            "be the program's (the page says why):",
            n, n == 1 ? "" : "s");
    const cJSON *f;
    cJSON_ArrayForEach(f, left_out)
    {
        fputc(' ', stderr);
        cp_text_put_printable(stderr, f->string);
    }
    fputc('\n', stderr);
}

/* 1 when the real path `real` lies under the directory dir (made real first). */
static int cp_html_under(const char *real, const char *dir)
{
    char *d = dir ? realpath(dir, NULL) : NULL;
    size_t n = d ? strlen(d) : 0;
    int under = d && strncmp(real, d, n) == 0 && (real[n] == '/' || (n == 1 && d[0] == '/'));
    free(d);
    return under;
}

/* Why the source file at the real path `real` stays out of the page o describes, or NULL when
 * it may be embedded (a page is shared: a report or raw files from elsewhere embed only what
 * the program's line tables name, under the directories it was built from or this one). */
static const char *cp_html_source_refused(const char *real, const cp_html_options *o)
{
    if (!o->restrict_sources)
        return NULL;
    if (o->source_files) {
        int named = 0;
        for (size_t i = 0; i < o->nsource_files && !named; i++) {
            char *r = realpath(o->source_files[i], NULL);
            named = r && strcmp(r, real) == 0;
            free(r);
        }
        if (!named)
            return "no line table of the program's saved cubins names it";
    }
    if (cp_html_under(real, "."))
        return NULL;
    for (size_t i = 0; i < o->nsource_dirs; i++)
        if (cp_html_under(real, o->source_dirs[i]))
            return NULL;
    return o->source_files ? "it lies outside the directories the program was built from and the "
                             "current directory"
                           : "it lies outside the current directory";
}

/* The distinct source files the trace's instructions name, read whole where they are regular
 * files of at most CP_HTML_MAX_SOURCE_BYTES that o lets in: {"path": "text", ...}; those o
 * keeps out go to left_out as {"path": "why"}. */
static cJSON *cp_html_sources(const cJSON *doc, const cp_html_options *o, cJSON *left_out)
{
    cJSON *sources = cJSON_CreateObject();
    const cJSON *ins;
    cJSON_ArrayForEach(ins, cJSON_GetObjectItemCaseSensitive(doc, "instructions"))
    {
        const cJSON *file = cJSON_GetObjectItemCaseSensitive(ins, "file");
        struct stat sb;
        if (!sources || !cJSON_IsString(file) ||
            cJSON_GetObjectItemCaseSensitive(sources, file->valuestring) ||
            cJSON_GetObjectItemCaseSensitive(left_out, file->valuestring) ||
            cJSON_GetArraySize(sources) >= CP_HTML_MAX_SOURCES)
            continue;
        char *real = realpath(file->valuestring, NULL);
        if (!real || stat(real, &sb) != 0 || !S_ISREG(sb.st_mode) ||
            sb.st_size > (off_t)CP_HTML_MAX_SOURCE_BYTES) {
            free(real);
            continue;
        }
        const char *why = cp_html_source_refused(real, o);
        size_t len = 0;
        char *text =
            why ? NULL : cp_text_read_watched(real, &len, CP_HTML_MAX_SOURCE_BYTES, NULL, NULL);
        if (why)
            cJSON_AddStringToObject(left_out, file->valuestring, why);
        else if (text && strlen(text) == len) /* text, not a binary */
            cJSON_AddStringToObject(sources, file->valuestring, text);
        free(text);
        free(real);
    }
    return sources;
}

/* The page's own facts, beside the report: {"kind", "written", "host", "table_keys",
 * "chart_keys", "sources", "sources_left_out"}. */
static cJSON *cp_html_meta(const cJSON *doc, int kind, const cp_html_options *o)
{
    char date[64], host[256] = "";
    cp_html_date(date, sizeof date);
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    cJSON *meta = cJSON_CreateObject();
    cJSON_AddStringToObject(meta, "kind", cp_html_pages[kind].name);
    cJSON_AddStringToObject(meta, "written", date);
    cJSON_AddStringToObject(meta, "host", host);
    if (kind == CP_HTML_SWEEP)
        cp_html_add_family_keys(meta, doc);
    if (kind == CP_HTML_TRACE && !o->no_source) {
        cJSON *left_out = cJSON_CreateObject();
        cJSON_AddItemToObject(meta, "sources", cp_html_sources(doc, o, left_out));
        if (cJSON_GetArraySize(left_out) > 0)
            cp_html_say_left_out(left_out);
        cJSON_AddItemToObject(meta, "sources_left_out", left_out);
    }
    return meta;
}

/* cp_json_put_fn: a part of the JSON text, escaped, to the page. */
static void cp_html_put_part(void *out, const char *text, size_t len)
{
    cp_html_put_json(out, text, len);
}

/* <script type="application/json" id="id"> holding the JSON text (len bytes) escaped, or, when
 * text is NULL, item printed compact (in parts, a report's rows over the CPUs). */
static int cp_html_put_data(FILE *out, const char *id, const cJSON *item, const char *text,
                            size_t len)
{
    fprintf(out, "<script type=\"application/json\" id=\"%s\">", id);
    int ok = 1;
    if (text)
        cp_html_put_json(out, text, len);
    else /* restored as it was: the const is the caller's promise */
        ok = cp_json_print_parts((cJSON *)item, cp_html_put_part, out);
    fputs("</script>\n", out);
    return ok;
}

/* A <dt>term</dt><dd>text</dd> of the header's list; nothing when text is empty. */
static void cp_html_fact(FILE *out, const char *term, const char *text)
{
    if (!text || !*text)
        return;
    fprintf(out, "<dt>%s</dt><dd>", term);
    cp_html_put_text(out, text);
    fputs("</dd>\n", out);
}

static const char *cp_html_string(const cJSON *o, const char *path)
{
    const cJSON *v = cp_html_lookup(o, NULL, path);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A compared report's GPU (base_device, new_device): its name, "none" where the report names
 * none (null), nothing where the comparison is older than the key. */
static const char *cp_html_compare_gpu(const cJSON *doc, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, key);
    return cJSON_IsString(v) ? v->valuestring : cJSON_IsNull(v) ? "none" : NULL;
}

/* The warning of compare's text on stderr, where the compared reports name different GPUs. */
static void cp_html_other_gpu(FILE *out, const cJSON *doc)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(doc, "base_device");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(doc, "new_device");
    if (!cJSON_IsString(b) || !cJSON_IsString(n) || !strcmp(b->valuestring, n->valuestring))
        return;
    fputs("<p class=\"cp-note\" id=\"cp-other-gpu\">The ", out);
    cp_compare_say_other_gpu(out, b->valuestring, n->valuestring, cp_html_put_text);
    fputs(".</p>\n", out);
}

/* The header: what the page shows, the command, the GPU and driver, when and where. */
static void cp_html_header(FILE *out, const cJSON *doc, int kind, const cJSON *meta)
{
    fprintf(
        out,
        "<header class=\"cp-head\">\n<h1>coalprobe <span>%s</span></h1>\n<dl class=\"cp-meta\">\n",
        cp_html_pages[kind].title);
    cp_html_fact(out, "command", cp_html_string(doc, "command"));
    if (kind == CP_HTML_SWEEP) {
        const char *gpu = cp_html_string(doc, "device.name");
        cp_html_fact(out, "GPU", gpu ? gpu : "none: the model's predictions only");
        cp_html_fact(out, "compute capability", cp_html_string(doc, "device.compute_capability"));
        cp_html_fact(out, "driver", cp_html_string(doc, "device.driver_release"));
    } else if (kind == CP_HTML_TRACE) {
        cp_html_fact(out, "program", cp_html_string(doc, "program.command"));
        cp_html_fact(out, "GPU", cp_html_string(doc, "processes.0.devices.0.name"));
        cp_html_fact(out, "host", cp_html_string(doc, "processes.0.host"));
    } else {
        cp_html_fact(out, "base", cp_html_string(doc, "base"));
        cp_html_fact(out, "base GPU", cp_html_compare_gpu(doc, "base_device"));
        cp_html_fact(out, "new", cp_html_string(doc, "new"));
        cp_html_fact(out, "new GPU", cp_html_compare_gpu(doc, "new_device"));
    }
    cp_html_fact(out, "coalprobe", cp_html_string(doc, "tool.version"));
    char where[400];
    snprintf(where, sizeof where, "%s%s%s", cp_html_string(meta, "written"),
             *cp_html_string(meta, "host") ? " on " : "", cp_html_string(meta, "host"));
    cp_html_fact(out, "page written", where);
    fputs("</dl>\n", out);
    if (kind == CP_HTML_COMPARE)
        cp_html_other_gpu(out, doc);
    fputs("</header>\n", out);
}

/* The page of doc; its JSON text (len bytes) is embedded as it is when text is not NULL. freeze:
 * where the caller gives doc up, the blocks of its numbers' text (cp_json_freeze, done before it
 * is printed) go there, to free after doc is deleted; NULL otherwise. */
static int cp_html_page(FILE *out, const cJSON *doc, cp_json_texts **freeze, const char *text,
                        size_t len, const cp_html_options *o, cp_status *st)
{
    static const cp_html_options defaults = {0};
    int kind = cp_html_kind_of(doc);
    if (kind < 0)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "no page for this document: it is not a report, trace report or "
                             "comparison of coalprobe");
    if (!o)
        o = &defaults;
    if (kind == CP_HTML_TRACE && !cJSON_IsArray(o->columns))
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "internal error: a trace report's page was asked for without the "
                             "trace report's columns");
    cJSON *meta = cp_html_meta(doc, kind, o);
    if (!meta)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while building the page");
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
          out);
    fprintf(out,
            "<meta name=\"generator\" content=\"coalprobe %s\">\n<title>coalprobe: ", CP_VERSION);
    cp_html_put_text(out, cp_html_string(doc, "command") ? cp_html_string(doc, "command")
                                                         : cp_html_string(doc, "new"));
    fputs("</title>\n<style>\n", out);
    fwrite(cp_html_css, 1, sizeof cp_html_css, out);
    fprintf(out, "</style>\n</head>\n<body class=\"cp-page\" data-kind=\"%s\">\n",
            cp_html_string(meta, "kind"));
    cp_html_header(out, doc, kind, meta);
    fputs("<noscript><p class=\"cp-note\">Scripts are off: the tables below hold every number of "
          "the report; the pictures need scripts.</p></noscript>\n"
          "<main id=\"cp-app\" class=\"cp-app\"></main>\n<section class=\"cp-tables\">\n",
          out);
    cp_html_pages[kind].tables(out, doc, o->columns);
    fputs("</section>\n", out);
    if (freeze) /* read no more: printed next */
        *freeze = cp_json_freeze((cJSON *)doc);
    int ok = cp_html_put_data(out, "cp-report", doc, text, len) &&
             cp_html_put_data(out, "cp-page", meta, NULL, 0) &&
             (kind != CP_HTML_TRACE || cp_html_put_data(out, "cp-columns", o->columns, NULL, 0));
    cJSON_Delete(meta);
    if (!ok)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while building the page");
    fputs("<script>\n", out);
    fwrite(cp_html_js, 1, sizeof cp_html_js, out);
    fputs("</script>\n</body>\n</html>\n", out);
    return cp_report_check_stream(out, st);
}

int cp_html_write(FILE *out, const cJSON *doc, const cp_html_options *o, cp_status *st)
{
    return cp_html_page(out, doc, NULL, NULL, 0, o, st);
}

int cp_html_write_owned(FILE *out, cJSON *doc, const cp_html_options *o, cp_status *st)
{
    cp_json_texts *texts = NULL;
    int rc = cp_html_page(out, doc, &texts, NULL, 0, o, st);
    /* the texts first: cJSON_Delete does not read them (cp_json_freeze), and freeing their
     * blocks after the tree's 300,000 small items made malloc gather all of those (a fifth of
     * a 1,024-row page's time) */
    cp_json_free_texts(texts);
    cJSON_Delete(doc);
    return rc;
}

int cp_html_write_text(FILE *out, const char *json, size_t len, const cp_html_options *o,
                       cp_status *st)
{
    cJSON *doc = cJSON_ParseWithLength(json, len);
    if (!doc)
        return cp_status_set(st, CP_EXIT_RUNTIME, "internal error: the page's JSON does not parse");
    int rc = cp_html_page(out, doc, NULL, json, len, o, st); /* the text as it was written */
    cJSON_Delete(doc);
    return rc;
}

int cp_html_write_from(FILE *out, int (*write)(FILE *json, void *arg, cp_status *st), void *arg,
                       const cp_html_options *o, cp_status *st)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while building the page");
    int rc = write(mem, arg, st);
    if (fclose(mem) != 0 && (rc == CP_EXIT_OK || rc == CP_EXIT_MISMATCH))
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while building the page");
    if (rc == CP_EXIT_OK || rc == CP_EXIT_MISMATCH) {
        cp_status page;
        cp_status_clear(&page);
        int written = cp_html_write_text(out, text, len, o, &page);
        if (written != CP_EXIT_OK) {
            *st = page;
            rc = written;
        }
    }
    free(text);
    return rc;
}
