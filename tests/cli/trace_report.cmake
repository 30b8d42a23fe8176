# tests/cli/trace_report.cmake: CLI tests of trace's report side: signals during the report,
# nvdisasm bounded in time and output, raw files of another version or shape, an output that is one
# of the inputs, control characters of the raw files kept off the terminal, nvdisasm's listings
# read from the cache, and made while the program runs.
set(CP_TRACE_REPORT_CLI ${CMAKE_CURRENT_SOURCE_DIR}/cli)
foreach(script output signal nvdisasm unreadable escape sass_cache prefetch)
  add_test(NAME cli.trace_report_${script}
           COMMAND sh ${CP_TRACE_REPORT_CLI}/trace_report_${script}.sh ${CP_BIN} ${CP_GOLDEN}/trace)
  set_tests_properties(cli.trace_report_${script} PROPERTIES LABELS cli TIMEOUT 180
                       ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
endforeach()

# Where the waste comes from: --group-by over the call sites of handmade-python (table and JSON
# goldens; CP_UPDATE_GOLDEN=1 ctest -R trace_where writes them), and --from-raw over the two
# nodes of handmade-ranks (rank 1 flagged). Run inside tests/golden/trace with relative names.
set(CP_TRACE_WHERE_GOLDEN ${CP_GOLDEN}/trace)
function(cp_trace_where_test name rc)
  cp_cli_test(${name} ${rc} ${ARGN})
  set_tests_properties(cli.${name} PROPERTIES WORKING_DIRECTORY ${CP_TRACE_WHERE_GOLDEN}
                       ENVIRONMENT "COALPROBE_NVDISASM=;CUDA_VISIBLE_DEVICES=")
endfunction()
foreach(by line callsite range)
  cp_trace_where_test(trace_where_${by}_table 0 --no-stderr --max-width 100
                      --golden ${CP_TRACE_WHERE_GOLDEN}/handmade-python-${by}.txt
                      -- ${CP_BIN} trace --from-raw handmade-python --group-by ${by})
  cp_trace_where_test(trace_where_${by}_json 0 --no-stderr --json
                      --golden ${CP_TRACE_WHERE_GOLDEN}/handmade-python-${by}.json
                      -- ${CP_BIN} trace --from-raw handmade-python --group-by ${by} --format json)
endforeach()
cp_trace_where_test(trace_where_ranks_table 0 --no-stderr --max-width 100
                    --golden ${CP_TRACE_WHERE_GOLDEN}/handmade-ranks.txt
                    -- ${CP_BIN} trace --from-raw handmade-ranks/node0 handmade-ranks/node1)
cp_trace_where_test(trace_where_ranks_json 0 --no-stderr --json
                    --golden ${CP_TRACE_WHERE_GOLDEN}/handmade-ranks.json
                    -- ${CP_BIN} trace --from-raw handmade-ranks/node0 handmade-ranks/node1 --format json)
# a real two-rank job's raw files (torchrun on 2 x H100, NCCL; their table and JSON goldens
# are tests/CMakeLists.txt's, as every raw directory's): what gpu.trace_ranks checks live, held
# without a GPU
add_test(NAME cli.trace_ranks_h100x2_checks
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/trace_ranks_fixture.py ${CP_BIN}
                 ${CP_TRACE_WHERE_GOLDEN}/h100x2-ranks)
set_tests_properties(cli.trace_ranks_h100x2_checks PROPERTIES LABELS cli)
# a wider spread flags no rank: rank 1's excess is 3x rank 0's (200% off the median)
cp_trace_where_test(trace_where_rank_spread 0 --stdout "^  rank 1 \\(node1, pid 4242\\): excess 786 kB, 40960 sectors, 2 launches$"
                    -- ${CP_BIN} trace --from-raw handmade-ranks/node0 handmade-ranks/node1 --rank-spread 2.5)
# the options' usage errors
cp_trace_where_test(trace_where_bad_group_by 2 --stderr "^coalprobe: --group-by: 'file' is not kernel, line, callsite or range"
                    --no-stdout -- ${CP_BIN} trace --from-raw handmade-python --group-by file)
cp_trace_where_test(trace_where_bad_python_frames 2 --stderr "^coalprobe: --python-frames: 'some' is not user or all"
                    --no-stdout -- ${CP_BIN} trace --python-frames some -- true)
cp_trace_where_test(trace_where_python_frames_from_raw 2 --stderr "^coalprobe: --python-frames cannot be used with --from-raw"
                    -- ${CP_BIN} trace --python-frames all --from-raw handmade-python)
cp_trace_where_test(trace_where_python_stack_from_raw 2 --stderr "^coalprobe: --python-stack cannot be used with --from-raw"
                    -- ${CP_BIN} trace --from-raw handmade-python --python-stack)
cp_trace_where_test(trace_where_bad_rank_spread 2 --stderr "^coalprobe: --rank-spread: 'x' is not a number from 0 to 1000"
                    -- ${CP_BIN} trace --from-raw handmade-ranks/node0 --rank-spread x)
cp_trace_where_test(trace_where_from_raw_second_missing 2 --stderr "^coalprobe: --from-raw runs no program, and 'nonexistent-dir' was given \\(it is not a directory\\)"
                    -- ${CP_BIN} trace --from-raw handmade-ranks/node0 nonexistent-dir)
# the traced program gets the choices of --python-frames and --python-stack in its environment
cp_trace_where_test(trace_where_python_env 0 --stdout "^frames=all stack=1$"
                    -- ${CP_BIN} trace --python-frames all --python-stack
                    -- sh -c "echo frames=$COALPROBE_TRACE_PYTHON_FRAMES stack=$COALPROBE_TRACE_PYTHON_STACK")
cp_trace_where_test(trace_where_python_env_unset 0 --stdout "^frames= stack=$"
                    -- ${CP_BIN} trace -- sh -c "echo frames=$COALPROBE_TRACE_PYTHON_FRAMES stack=$COALPROBE_TRACE_PYTHON_STACK")
# the new goldens hold to the trace report's schema
add_test(NAME cli.trace_where_schema
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/schema/validate.py
                 --schema ${PROJECT_SOURCE_DIR}/docs/schema/coalprobe-trace.schema.json
                 ${CP_TRACE_WHERE_GOLDEN}/handmade-python-line.json
                 ${CP_TRACE_WHERE_GOLDEN}/handmade-python-callsite.json
                 ${CP_TRACE_WHERE_GOLDEN}/handmade-python-range.json
                 ${CP_TRACE_WHERE_GOLDEN}/handmade-ranks.json)
set_tests_properties(cli.trace_where_schema PROPERTIES LABELS cli SKIP_RETURN_CODE 77)

# A timeline (--format chrome-trace) of handmade-timeline's launches with kernel_time records:
# golden (CP_UPDATE_GOLDEN=1 ctest -R trace_timeline writes it; not named .json: the trace
# report schema checks every .json there) and held to its own schema
cp_trace_where_test(trace_timeline_chrome 0 --no-stderr --json
                    --golden ${CP_TRACE_WHERE_GOLDEN}/handmade-timeline.chrome-trace
                    -- ${CP_BIN} trace --from-raw handmade-timeline --format chrome-trace)
add_test(NAME cli.trace_timeline_schema
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/schema/validate.py
                 --schema ${PROJECT_SOURCE_DIR}/docs/schema/coalprobe-chrome-trace.schema.json
                 ${CP_TRACE_WHERE_GOLDEN}/handmade-timeline.chrome-trace)
set_tests_properties(cli.trace_timeline_schema PROPERTIES LABELS cli SKIP_RETURN_CODE 77)
cp_trace_where_test(trace_timeline_bad_format 2 --no-stdout
                    --stderr "^coalprobe: --format: 'chrome' is not a format of trace"
                    --stderr "^hint: trace writes table, json, csv, chrome-trace, vega-lite or html$"
                    -- ${CP_BIN} trace --from-raw handmade-timeline --format chrome)
# a region left by an exception (coalprobe.trace(), the `interrupted` record): reported, marked
# incomplete with its reason
add_test(NAME cli.trace_interrupted
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/trace_interrupted.sh ${CP_BIN} ${CP_GOLDEN}/trace)
set_tests_properties(cli.trace_interrupted PROPERTIES LABELS cli)
