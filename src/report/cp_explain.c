/* cp_explain.c: the --explain picture: one text row per 128-byte line a request touches, one
 * character per 4 bytes, each lane's bytes marked with its lane digit. */
#include "cp_explain.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/cp_model.h"
#include "cp_report_util.h"

#define CP_CELL_BYTES 4u
#define CP_CELLS_PER_SECTOR (CP_SECTOR_BYTES / CP_CELL_BYTES)
#define CP_CELLS_PER_LINE (CP_LINE_BYTES / CP_CELL_BYTES)

static char cp_explain_lane_char(unsigned lane)
{
    return "0123456789abcdefghijklmnopqrstuv"[lane];
}

/* One 128-byte line of a request: what each 4-byte cell holds. */
typedef struct cp_explain_line {
    uint64_t line; /* line index: byte offset / 128 */
    char cells[CP_CELLS_PER_LINE];
    unsigned used_bytes;
} cp_explain_line;

static cp_explain_line *cp_explain_line_for(cp_explain_line *lines, unsigned *n, uint64_t line)
{
    for (unsigned i = 0; i < *n; i++)
        if (lines[i].line == line)
            return &lines[i];
    cp_explain_line *l = &lines[(*n)++];
    l->line = line;
    memset(l->cells, ' ', sizeof l->cells);
    l->used_bytes = 0;
    return l;
}

static int cp_explain_line_cmp(const void *a, const void *b)
{
    uint64_t x = ((const cp_explain_line *)a)->line, y = ((const cp_explain_line *)b)->line;
    return x < y ? -1 : x > y;
}

/* A global request's sectors, lane by lane; op: what its '*' cells mean (several lanes on the
 * same bytes): a load's broadcast, a store's one winner, a read-modify-write's serialized
 * updates. */
static void cp_explain_request(FILE *out, const cp_warp_lanes *w, const cp_access_prediction *ap)
{
    cp_explain_line lines[CP_WARP_SIZE];
    unsigned nlines = 0;
    int broadcast = 0;
    for (unsigned lane = 0; lane < CP_WARP_SIZE; lane++) {
        if (!(w->active_mask & (1u << lane)))
            continue;
        uint64_t a = w->addr[lane];
        cp_explain_line *l = cp_explain_line_for(lines, &nlines, a / CP_LINE_BYTES);
        unsigned first = (unsigned)(a % CP_LINE_BYTES) / CP_CELL_BYTES;
        unsigned sector = first / CP_CELLS_PER_SECTOR;
        for (unsigned c = sector * CP_CELLS_PER_SECTOR; c < (sector + 1) * CP_CELLS_PER_SECTOR; c++)
            if (l->cells[c] == ' ')
                l->cells[c] = '.';
        for (unsigned c = first; c < first + w->lane_bytes / CP_CELL_BYTES; c++) {
            if (l->cells[c] == '.') {
                l->cells[c] = cp_explain_lane_char(lane);
                l->used_bytes += CP_CELL_BYTES;
            } else if (l->cells[c] != cp_explain_lane_char(lane)) {
                l->cells[c] = '*';
                broadcast = 1;
            }
        }
    }
    qsort(lines, nlines, sizeof *lines, cp_explain_line_cmp);
    fprintf(out, "  byte offset   sector 0 sector 1 sector 2 sector 3   sectors  wasted\n");
    for (unsigned i = 0; i < nlines; i++) {
        const cp_explain_line *l = &lines[i];
        if (i > 0 && l->line != lines[i - 1].line + 1)
            fprintf(out, "  ...\n");
        unsigned sectors = 0;
        fprintf(out, "  0x%010" PRIx64 " ", l->line * CP_LINE_BYTES);
        for (unsigned s = 0; s < CP_LINE_BYTES / CP_SECTOR_BYTES; s++) {
            const char *cells = l->cells + s * CP_CELLS_PER_SECTOR;
            sectors += cells[0] != ' ';
            fprintf(out, "|%.*s", (int)CP_CELLS_PER_SECTOR, cells);
        }
        fprintf(out, "|  %7u  %4u B\n", sectors, sectors * CP_SECTOR_BYTES - l->used_bytes);
    }
    cp_counts c;
    memset(&c, 0, sizeof c);
    cp_model_count_request(w, &c);
    fprintf(out,
            "  = %" PRIu64 " sector%s, %" PRIu64 " line%s, %" PRIu64
            " B asked: %.1f%% efficiency, ideal %" PRIu64 " sector%s\n",
            c.sectors, c.sectors == 1 ? "" : "s", c.lines, c.lines == 1 ? "" : "s",
            c.bytes_requested, 100.0 * cp_counts_efficiency(&c), c.ideal_sectors,
            c.ideal_sectors == 1 ? "" : "s");
    if (broadcast && ap->family_counted)
        fprintf(out, "  '*': several lanes update the same bytes: one after another, in passes "
                     "that each move\n       the sectors again (the family's own sectors count "
                     "them: docs/model.md)\n");
    else if (broadcast && ap->op == CP_OP_STORE)
        fprintf(out, "  '*': several lanes write the same bytes (one of their values stays)\n");
    else if (broadcast)
        fprintf(out, "  '*': several lanes read the same bytes (served once: a broadcast)\n");
}

/* A shared-memory request: one column per bank (32 banks of 4 bytes), one row per wavefront;
 * row k shows, for each bank, the lane of the k-th distinct word that bank must deliver. */
static void cp_explain_shared_request(FILE *out, const cp_warp_lanes *w)
{
    enum { BANKS = CP_SHARED_BANKS };
    uint64_t words[BANKS][CP_WARP_SIZE];
    char who[BANKS][CP_WARP_SIZE];
    unsigned count[BANKS] = {0}, rows = 0;
    int broadcast = 0;
    for (unsigned lane = 0; lane < CP_WARP_SIZE; lane++) {
        if (!(w->active_mask & (1u << lane)))
            continue;
        for (unsigned k = 0; k < w->lane_bytes / CP_SHARED_BANK_BYTES; k++) {
            uint64_t word = w->addr[lane] / CP_SHARED_BANK_BYTES + k;
            unsigned b = (unsigned)(word % BANKS), j = 0;
            while (j < count[b] && words[b][j] != word)
                j++;
            if (j < count[b]) { /* several lanes, one word: delivered once */
                who[b][j] = '*';
                broadcast = 1;
                continue;
            }
            /* keep each bank's words sorted, as the rows list them */
            while (j > 0 && words[b][j - 1] > word) {
                words[b][j] = words[b][j - 1];
                who[b][j] = who[b][j - 1];
                j--;
            }
            words[b][j] = word;
            who[b][j] = cp_explain_lane_char(lane);
            if (++count[b] > rows)
                rows = count[b];
        }
    }
    fprintf(out, "  bank          0         1         2         3\n"
                 "                01234567890123456789012345678901\n");
    for (unsigned r = 0; r < rows; r++) {
        fprintf(out, "  wavefront %2u |", r + 1);
        for (unsigned b = 0; b < BANKS; b++)
            fputc(r < count[b] ? who[b][r] : '.', out);
        fprintf(out, "|\n");
    }
    cp_counts c;
    memset(&c, 0, sizeof c);
    cp_model_count_shared_request(w, &c);
    fprintf(out,
            "  = %" PRIu64 " wavefront%s, ideal %" PRIu64 ": %" PRIu64 " bank conflict%s, %" PRIu64
            " B asked\n",
            c.wavefronts, c.wavefronts == 1 ? "" : "s", c.ideal_wavefronts, c.bank_conflicts,
            c.bank_conflicts == 1 ? "" : "s", c.bytes_requested);
    if (broadcast)
        fprintf(out, "  '*': several lanes read the same word (delivered once: a broadcast)\n");
}

static void cp_explain_lanes_summary(FILE *out, uint32_t mask)
{
    unsigned active = 0;
    for (unsigned l = 0; l < CP_WARP_SIZE; l++)
        active += (mask >> l) & 1u;
    if (active == CP_WARP_SIZE)
        fprintf(out, "all 32 lanes active");
    else
        fprintf(out, "%u of 32 lanes active", active);
}

int cp_explain_check(const cp_config *c, uint64_t warp, cp_status *st)
{
    cp_prediction p;
    CP_TRY(cp_model_validate(c, st));     /* a user's expression must hold for every thread */
    CP_TRY(cp_model_describe(c, &p, st)); /* the grid's shape */
    if (p.modelled && warp >= p.warps) {
        char desc[160];
        cp_config_describe(c, desc, sizeof desc);
        cp_status_set(st, CP_EXIT_USAGE,
                      "warp %" PRIu64 " does not exist (the grid has %" PRIu64 " warps)", warp,
                      p.warps);
        cp_status_hint(
            st, "--warp takes 0 to %" PRIu64 " for %s %s: every configuration drawn has the warp",
            p.warps - 1, cp_config_family_name(c->family), desc);
        return CP_EXIT_USAGE;
    }
    return CP_EXIT_OK;
}

/* An access outside the LSU's pipes: a copy by the TMA unit (its byte range and sectors), or a
 * load from __constant__ memory (the distinct words, one pass of the constant cache each). */
static int cp_explain_other_space(FILE *out, const cp_config *c, size_t a,
                                  const cp_access_prediction *ap, uint64_t warp, cp_status *st)
{
    cp_warp_lanes w;
    CP_TRY(cp_model_warp_lanes(c, a, 0, warp, 0, &w, st));
    cp_counts k;
    memset(&k, 0, sizeof k);
    if (ap->space == CP_SPACE_TMA) {
        fprintf(out, "\n%s: a copy of %u B by the TMA unit (thread 0 of the tile's block)\n",
                ap->name, ap->lane_bytes);
        if (!(w.active_mask & 1u)) {
            fprintf(out, "  warp %" PRIu64 " issues none (the tile's first warp does)\n", warp);
            return CP_EXIT_OK;
        }
        cp_model_count_tma_request(&w, &k);
        fprintf(out,
                "  bytes 0x%010" PRIx64 "..0x%010" PRIx64 ": %" PRIu64 " sectors, %" PRIu64
                " lines,\n  %" PRIu64 " B asked: %.1f%% efficiency, ideal %" PRIu64 " sectors\n",
                w.addr[0], w.addr[0] + ap->lane_bytes - 1, k.sectors, k.lines, k.bytes_requested,
                100.0 * cp_counts_efficiency(&k), k.ideal_sectors);
        return CP_EXIT_OK;
    }
    fprintf(out, "\n%s: constant-memory load of %u B per lane, ", ap->name, ap->lane_bytes);
    cp_explain_lanes_summary(out, w.active_mask);
    cp_model_count_constant_request(&w, &k);
    fprintf(out,
            "\n  %" PRIu64 " distinct words: %" PRIu64 " pass%s of the constant cache (one "
            "address a pass;\n  1 when every lane reads the same word), no global sectors\n",
            k.wavefronts, k.wavefronts, k.wavefronts == 1 ? "" : "es");
    return CP_EXIT_OK;
}

int cp_explain_write(FILE *out, const cp_config *c, uint64_t warp, cp_status *st)
{
    CP_TRY(cp_explain_check(c, warp, st));
    return cp_explain_write_checked(out, c, warp, st);
}

int cp_explain_write_checked(FILE *out, const cp_config *c, uint64_t warp, cp_status *st)
{
    cp_prediction p;
    CP_TRY(cp_model_describe(c, &p, st)); /* the shape only: each drawn request is counted */
    char desc[160];
    cp_config_describe(c, desc, sizeof desc);
    if (!p.modelled) {
        fprintf(out, "%s %s: not modelled (cuBLAS)\n", cp_config_family_name(c->family), desc);
        return CP_EXIT_OK;
    }
    fprintf(out, "%s %s: warp %" PRIu64 " of %" PRIu64 "\n", cp_config_family_name(c->family), desc,
            warp, p.warps);
    fprintf(out, "One character per 4 bytes; a digit 0-9 or letter a-v is the lane that asked\n"
                 "for them, '.' bytes fetched for nobody, blank: sector not fetched.\n");
    for (size_t a = 0; a < p.naccesses; a++)
        if (p.accesses[a].space == CP_SPACE_SHARED) {
            fprintf(out, "Shared memory: one column per 4-byte bank, one row per wavefront (the\n"
                         "banks deliver one word each per wavefront); '.': bank idle.\n");
            break;
        }
    const cp_family_desc *fd = cp_family_get(c->family);
    if (fd && fd->schedule) {
        char schedule[2048];
        fd->schedule(c, schedule, sizeof schedule);
        fprintf(out, "\n%s", schedule);
    }
    for (size_t a = 0; a < p.naccesses; a++) {
        const cp_access_prediction *ap = &p.accesses[a];
        if (ap->space == CP_SPACE_TMA || ap->space == CP_SPACE_CONSTANT) {
            CP_TRY(cp_explain_other_space(out, c, a, ap, warp, st));
            continue;
        }
        for (uint32_t ins = 0; ins < ap->instructions; ins++) {
            cp_warp_lanes w;
            CP_TRY(cp_model_warp_lanes(c, a, ins, warp, 0, &w, st));
            /* an access its family's own counters count (an atomic add) reads and writes */
            fprintf(out, "\n%s: %s%s of %u B per lane", ap->name,
                    ap->space == CP_SPACE_SHARED ? "shared " : "",
                    ap->family_counted ? "read-modify-write" : cp_config_op_name(ap->op),
                    ap->lane_bytes);
            if (ap->instructions > 1)
                fprintf(out, ", instruction %u of %u", ins + 1, ap->instructions);
            if (ap->iterations > 1)
                fprintf(out, ", step 0 of %" PRIu64, ap->iterations);
            fprintf(out, ", ");
            cp_explain_lanes_summary(out, w.active_mask);
            fprintf(out, "\n");
            if (!w.active_mask) {
                fprintf(out, "  no active lane: the warp issues no request\n");
                continue;
            }
            if (ap->space == CP_SPACE_SHARED)
                cp_explain_shared_request(out, &w);
            else
                cp_explain_request(out, &w, ap);
        }
    }
    return ferror(out) ? cp_status_set(st, CP_EXIT_RUNTIME, "write error while explaining")
                       : CP_EXIT_OK;
}

/* "2", or "any" for a limit that does not bind. */
static void cp_explain_blocks(char *buf, size_t len, uint32_t blocks)
{
    if (blocks == UINT32_MAX)
        snprintf(buf, len, "any");
    else
        snprintf(buf, len, "%u", (unsigned)blocks);
}

int cp_explain_write_resources(FILE *out, const cp_resources *r, cp_status *st)
{
    if (!r->known) {
        fprintf(out, "\nKernel resources: %s\n", r->reason[0] ? r->reason : "unknown");
        return ferror(out) ? cp_status_set(st, CP_EXIT_RUNTIME, "write error while explaining")
                           : CP_EXIT_OK;
    }
    fprintf(out,
            "\nKernel: %u threads/block, %u registers/thread, shared memory per block\n"
            "  %" PRIu64 " B static + %" PRIu64 " B dynamic\n",
            (unsigned)r->threads_per_block, (unsigned)r->registers_per_thread,
            r->static_shared_bytes, r->dynamic_shared_bytes);
    cp_occupancy o;
    uint32_t sm_warps = r->sm.warp_size ? r->sm.max_threads_per_sm / r->sm.warp_size : 0;
    uint32_t warps =
        r->sm.warp_size ? (r->threads_per_block + r->sm.warp_size - 1) / r->sm.warp_size : 0;
    if (cp_report_compute_occupancy(r, &o)) {
        char b[CP_LIMIT_COUNT][16];
        for (int l = 0; l < CP_LIMIT_COUNT; l++)
            cp_explain_blocks(b[l], sizeof b[l], o.blocks_by[l]);
        fprintf(out, "Blocks/SM allowed: threads %s, registers %s, shared memory %s, slots %s\n",
                b[CP_LIMIT_THREADS], b[CP_LIMIT_REGISTERS], b[CP_LIMIT_SHARED], b[CP_LIMIT_BLOCKS]);
    }
    fprintf(out, "Occupancy: %u block%s/SM, %u of %u warps: %.0f%% theoretical\n",
            (unsigned)r->blocks_per_sm, r->blocks_per_sm == 1 ? "" : "s",
            (unsigned)(r->blocks_per_sm * warps), (unsigned)sm_warps,
            100.0 * r->theoretical_occupancy);
    if (cp_report_compute_occupancy(r, &o)) {
        char names[96];
        cp_occupancy_describe_limiters(o.limiters, " and ", names, sizeof names);
        for (char *u = names; *u; u++) /* "shared_memory" reads as two words here */
            if (*u == '_')
                *u = ' ';
        fprintf(out, "  limited by %s\n", names);
        if (o.blocks != r->blocks_per_sm)
            fprintf(out,
                    "  (coalprobe's calculation gives %u blocks/SM; the CUDA occupancy API's\n"
                    "  number is the one shown)\n",
                    (unsigned)o.blocks);
    }
    return ferror(out) ? cp_status_set(st, CP_EXIT_RUNTIME, "write error while explaining")
                       : CP_EXIT_OK;
}
