# tests/cli/report_stream.cmake: CLI tests of reports of large sweeps: JSON and CSV rows streamed,
# memory that stays flat.
if(COALPROBE_SANITIZE)
  set(CP_REPORT_STREAM_SANITIZED 1)
else()
  set(CP_REPORT_STREAM_SANITIZED 0)
endif()
add_test(NAME cli.report_stream_rss
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/report_stream_rss.sh ${CP_BIN}
                 ${CP_REPORT_STREAM_SANITIZED})
set_tests_properties(cli.report_stream_rss PROPERTIES LABELS cli SKIP_RETURN_CODE 77 TIMEOUT 120)
add_test(NAME cli.report_stream_interrupt
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/report_stream_interrupt.sh ${CP_BIN})
set_tests_properties(cli.report_stream_interrupt PROPERTIES LABELS cli TIMEOUT 120)
