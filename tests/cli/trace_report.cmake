# tests/cli/trace_report.cmake: CLI tests of trace's report side: signals during the report,
# nvdisasm bounded in time and output, raw files of another version or shape, an output that is one
# of the inputs, control characters of the raw files kept off the terminal, nvdisasm's listings
# read from the cache.
set(CP_TRACE_REPORT_CLI ${CMAKE_CURRENT_SOURCE_DIR}/cli)
foreach(script output signal nvdisasm unreadable escape sass_cache)
  add_test(NAME cli.trace_report_${script}
           COMMAND sh ${CP_TRACE_REPORT_CLI}/trace_report_${script}.sh ${CP_BIN} ${CP_GOLDEN}/trace)
  set_tests_properties(cli.trace_report_${script} PROPERTIES LABELS cli TIMEOUT 180
                       ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
endforeach()
