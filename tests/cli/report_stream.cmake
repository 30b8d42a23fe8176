# tests/cli/report_stream.cmake: CLI tests of reports of large sweeps: JSON and CSV rows streamed,
# memory that stays flat.
