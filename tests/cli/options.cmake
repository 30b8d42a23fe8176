# tests/cli/options.cmake: CLI tests of the command line: one rule for leading zeros, repeated
# options, every check before the first byte of output.
