# tests/cli/output.cmake: CLI tests of the files a run writes and the signals that stop it:
# standard descriptors closed at start, an interrupted run that leaves the old report untouched,
# destinations the user may not write.
