/* cp_trace_help.c: the help of coalprobe trace as a table (cp_help.h): its options, what it is
 * for, examples and exit codes; trace --help, `coalprobe help trace`, the man page and the shell
 * completions print it, and a test checks it against the options trace parses. */
#include "cp_trace.h"

static const cp_help_option cp_trace_help_options[] = {
    {"Report", "top", 0, "N",
     "instructions per kernel in the table, 0..1000000 (default 5; JSON and CSV hold every "
     "instruction)",
     CP_HELP_ANY, NULL},
    {NULL, "format", 0, "FMT",
     "table (default), json, csv, chrome-trace (a timeline of the launches for Perfetto and "
     "chrome://tracing), vega-lite (a chart of the excess bytes; scripts/plot draws it) or html "
     "(a page: kernels, ranked instructions, the source with each line's excess; docs/page.md)",
     CP_HELP_VALUES, "table json csv chrome-trace vega-lite html"},
    {NULL, "no-source", 0, NULL, "html: leave the source files out of the page", CP_HELP_ANY, NULL},
    {NULL, "output", 'o', "FILE",
     "write the report to FILE (default: standard output, after the program's own output)",
     CP_HELP_FILE, NULL},
    {NULL, "json", 0, "FILE", "also write the JSON report to FILE (as -o), beside the main one",
     CP_HELP_FILE, NULL},
    {NULL, "csv", 0, "FILE", "also write the CSV report to FILE (as -o)", CP_HELP_FILE, NULL},
    {NULL, "chrome-trace", 0, "FILE", "also write the timeline to FILE (as -o)", CP_HELP_FILE,
     NULL},
    {NULL, "vega-lite", 0, "FILE", "also write the chart to FILE (as -o)", CP_HELP_FILE, NULL},
    {NULL, "html", 0, "FILE", "also write the page to FILE (as -o)", CP_HELP_FILE, NULL},
    {NULL, "group-by", 0, "BY",
     "kernel (default), line (the innermost user Python line), callsite (that frame, its stack "
     "and NVTX range) or range (the NVTX range path): where in the program the excess comes from",
     CP_HELP_VALUES, "kernel line callsite range"},
    {NULL, "rank-spread", 0, "F",
     "flag a rank whose excess is off the median rank's by more than F, 0..1000 (default 0.25: "
     "25%)",
     CP_HELP_ANY, NULL},
    {"Gate (exit 3 when an instruction or kernel is over a limit; offending lines on stderr)",
     "max-sectors-per-request", 0, "X", "global sectors per request above X (above 0) fail",
     CP_HELP_ANY, NULL},
    {NULL, "max-excess-pct", 0, "P",
     "more than P% (0..100) of an instruction's sectors in excess (or of its wavefronts bank "
     "conflicts) fails",
     CP_HELP_ANY, NULL},
    {NULL, "min-requests", 0, "N", "the gate ignores instructions of fewer requests", CP_HELP_ANY,
     NULL},
    {NULL, "min-coverage", 0, "F",
     "a counted kernel whose instructions' counts cover less than F (0 to 1) of its bytes "
     "between L1 and L2, or an unknown part, fails (TMA, local memory)",
     CP_HELP_ANY, NULL},
    {"What is counted (in the traced program; docs/trace.md \"Cost\")", "kernel", 0, "REGEX",
     "only kernels whose demangled name (C++ with its parameters, as the report shows it) "
     "matches REGEX (POSIX ERE, as ncu's --kernel-name regex:) are counted: others get no "
     "range, their instruction records are dropped; with --from-raw it filters the report",
     CP_HELP_ANY, NULL},
    {NULL, "launch-skip", 0, "N", "per kernel, leave its first N launches out (as ncu's)",
     CP_HELP_ANY, NULL},
    {NULL, "launch-count", 0, "N",
     "per kernel, count at most N launches (after --launch-skip; as ncu's)", CP_HELP_ANY, NULL},
    {NULL, "nvtx-include", 0, "RANGE",
     "count only launches made inside an NVTX range named RANGE (pushed or started, any domain, "
     "at any depth)",
     CP_HELP_ANY, NULL},
    {NULL, "capture-range", 0, "profiler-api",
     "count only launches between the program's cudaProfilerStart and cudaProfilerStop (as "
     "nsys): nothing before the first start",
     CP_HELP_VALUES, "profiler-api"},
    {NULL, "counter-launches", 0, "N",
     "per-kernel counters (GPU time, TMA and local sectors; a serialising range) for the first N "
     "launches of each kernel and launch shape (grid, block, dynamic shared memory), "
     "0..4294967295 (default 5); every counted launch is still counted per instruction; the "
     "report says \"counters from N of M launches\"",
     CP_HELP_ANY, NULL},
    {NULL, "all-launches", 0, NULL,
     "per-kernel counters for every counted launch (each launch serialised: about 1.3-1.6 ms a "
     "launch on an H100)",
     CP_HELP_ANY, NULL},
    {NULL, "instructions", 0, "W",
     "every (default): count every counted launch per instruction; sampled: only the launches "
     "with per-kernel counters (SASS metrics patched eagerly; the report says "
     "\"instructions and counters from N of M launches\", never scaled up); with --all-launches "
     "every launch is sampled, so every launch is counted; not with --counter-launches 0 or "
     "--kernel-counters full",
     CP_HELP_VALUES, "every sampled"},
    {"Raw files", "raw-dir", 0, "DIR",
     "keep the raw files in DIR (created; must hold no raw files) instead of a temporary "
     "directory removed at the end",
     CP_HELP_DIR, NULL},
    {NULL, "from-raw", 0, "DIR",
     "run nothing: report the raw files recorded in DIR; DIR [DIR...] several: one report, e.g. "
     "one directory per rank",
     CP_HELP_DIR, NULL},
    {"Python call sites", "python-frames", 0, "W",
     "user (default): a launch's line is the innermost frame outside the standard library and "
     "site-packages; all: the innermost",
     CP_HELP_VALUES, "user all"},
    {NULL, "python-stack", 0, NULL, "record each call site's whole Python stack (up to 64 frames)",
     CP_HELP_ANY, NULL},
    {"Cost", "kernel-counters", 0, "SET",
     "lean (default): per-kernel sectors, instructions and time in one pass, no replay, every "
     "launch counted per instruction; full: also requests, bytes requested and shared "
     "wavefronts per kernel, TMA's and local bytes, at 6 replay passes a launch on an H100 (then "
     "the instructions are counted over one launch's passes and scaled)",
     CP_HELP_VALUES, "lean full"},
    {NULL, "verbose", 'v', NULL, "where the time went, on stderr, at the end", CP_HELP_ANY, NULL},
    {NULL, "help", 'h', NULL, "this help", CP_HELP_ANY, NULL},
};

static const cp_help_example cp_trace_help_examples[] = {
    {"coalprobe trace -- ./my_app --size 4096", "every kernel's worst instructions"},
    {"coalprobe trace --top 20 -- python3 train.py", "a PyTorch program, 20 per kernel"},
    {"coalprobe trace --group-by line -- python3 train.py", "by the Python line that launched"},
    {"coalprobe trace --from-raw dir.0 dir.1 dir.2 dir.3", "one report of four ranks"},
    {"coalprobe trace --kernel transpose --format json -o t.json -- ./bench",
     "one kernel, as JSON"},
    {"coalprobe trace --max-sectors-per-request 8 --min-requests 1000 -- ./tests",
     "a gate for CI: exit 3 over 8 sectors per request"},
};

static const cp_help_command cp_trace_help_command = {
    "trace",
    "the memory instructions of any CUDA program, ranked by the bytes they waste",
    "coalprobe trace [options] [--] PROGRAM [ARGS...]\n"
    "coalprobe trace [options] --from-raw DIR [DIR...]",
    "Runs PROGRAM (any CUDA program, unchanged) with coalprobe's CUPTI injection library, counts "
    "every global and shared memory instruction of every kernel it launches, and after it ends "
    "ranks the instructions by the bytes they waste: sectors moved beyond what the lanes' bytes "
    "need, and shared-memory bank conflicts (docs/trace.md). It takes the lesson of the "
    "families to your own kernels: the line of source that moves 32 sectors per request. "
    "Everything after the first non-option (or after --) is the program and its arguments, "
    "passed as they are; its standard streams are its own.",
    cp_trace_help_options,
    CP_COUNT_OF(cp_trace_help_options),
    cp_trace_help_examples,
    CP_COUNT_OF(cp_trace_help_examples),
    "the program's own when it is not 0 (128 + N when signal N killed it); else 3 when the gate "
    "failed, 0 otherwise; 1 for coalprobe's own runtime errors (also a gate with nothing to "
    "judge), 2 for usage errors (nothing was run).",
};

const cp_help_command *cp_trace_help(void)
{
    return &cp_trace_help_command;
}
