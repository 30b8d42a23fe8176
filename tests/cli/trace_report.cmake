# tests/cli/trace_report.cmake: CLI tests of trace's report side: signals during the report,
# nvdisasm bounded in time and output, raw files of another version or shape, an output that is one
# of the inputs.
