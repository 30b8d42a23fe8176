# tests/cli/compare.cmake: CLI tests of coalprobe compare: inputs that fail their schema, an output
# that is one of the inputs, values printed in full, strings made safe for a terminal.
