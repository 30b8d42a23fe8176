# tests/cli/output.cmake: CLI tests of the files a run writes and the signals that stop it:
# standard descriptors closed at start, an interrupted run that leaves the old report untouched,
# destinations the user may not write.

set(CP_OUTPUT_SH ${CMAKE_CURRENT_SOURCE_DIR}/cli)
# every output test runs as on a machine without a GPU
function(cp_output_script name script)
  add_test(NAME cli.${name} COMMAND sh ${CP_OUTPUT_SH}/${script} ${ARGN})
  set_tests_properties(cli.${name} PROPERTIES LABELS cli TIMEOUT 180 SKIP_RETURN_CODE 77
                       ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
endfunction()

# descriptors 0-2 closed at start: the report file never takes one of them
cp_output_script(output_std_closed output_std_closed.sh ${CP_BIN})
# a signal before any configuration finished (mid-way through a long model configuration): out
# at once, nothing written, the old report untouched
cp_output_script(output_interrupt_early output_interrupt_early.sh ${CP_BIN})
# SIGINT mid-sweep, through a real process, once rows exist (its progress on a terminal says
# so): the rows finished so far are written, marked incomplete, exit 130
cp_output_script(interrupted output_interrupted.sh ${CP_BIN} ${CMAKE_CURRENT_BINARY_DIR}/interrupted.json)
# inputs read up to COALPROBE_MAX_INPUT_BYTES: compare's reports, /dev/stdin that never ends,
# raw trace files
cp_output_script(output_input_limit output_input_limit.sh ${CP_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/golden/trace/handmade-transpose)
# --require-counters on a run without counters: exit 1 with the reason, as --check
cp_cli_test(output_require_counters_no_gpu 1 --stderr "^coalprobe: --require-counters: the hardware counters cannot be read: this run has no GPU$"
            --stderr "^hint: run on a GPU" -- ${CP_BIN} --stride 1..2 --require-counters)
cp_cli_test(output_require_counters_model 1 --stderr "^coalprobe: --require-counters: the hardware counters cannot be read: --model measures nothing$"
            -- ${CP_BIN} --stride 1..2 --model --require-counters)
# -o on a file this user may not write (0444, another user's): refused before any work
cp_output_script(output_read_only output_read_only.sh ${CP_BIN})
# what an output may name (issue 42): an option eaten as a file name, a second output to
# standard output in any spelling, standard output that is an input (1<>b.json), --format html
# to a terminal, help and doctor to /dev/full
cp_output_script(output_names output_names.sh ${CP_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/golden/trace/handmade-transpose)
