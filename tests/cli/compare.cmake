# tests/cli/compare.cmake: CLI tests of coalprobe compare: inputs that fail their schema, an output
# that is one of the inputs, values printed in full, strings made safe for a terminal.

# -o naming one of the inputs (however it is reached) is refused before any work
add_test(NAME cli.compare_output_is_input
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/compare_same_file.sh ${CP_BIN} ${CP_GOLDEN}/compare)
set_tests_properties(cli.compare_output_is_input PROPERTIES LABELS cli ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
