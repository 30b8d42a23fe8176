# tests/cli/help.cmake: help where the user is (coalprobe FAMILY --help, coalprobe help COMMAND,
# each command's --help: parameters with defaults and ranges, examples, 80 columns), the hint after
# an unknown command, and the man page and completions written from the same tables.

foreach(family stride layout gemm gather smem transpose expr readonly async atomic)
  # stride's examples are the default's: "coalprobe --stride ..."
  if(family STREQUAL "stride")
    set(example "^  coalprobe --")
  else()
    set(example "^  coalprobe ${family}")
  endif()
  cp_cli_test(help_${family} 0 --no-stderr --max-width 80 --stdout "^Usage: coalprobe ${family} "
              --stdout "^${family}: " --stdout "default [^ ]+\\.$" --stdout "^Examples:"
              --stdout "${example}" -- ${CP_BIN} ${family} --help)
  cp_cli_test(help_command_${family} 0 --no-stderr --stdout "^Usage: coalprobe ${family} "
              -- ${CP_BIN} help ${family})
endforeach()
# the values and ranges come from the parser's own tables and checks (a "." stands for each ";",
# which would split the CMake argument)
cp_cli_test(help_gemm_values 0 --stdout "^  --variant V +the kernel"
            --stdout "One or$" --stdout "more of naive, coalesced, smem, cublas or all. default all\\.$"
            --stdout "^  --m M +rows of A and C\\. 1\\.\\.65536. default 4096\\.$" -- ${CP_BIN} gemm --help)
cp_cli_test(help_smem_width 0 --stdout "^  --width W +bytes per element .* 4, 8 or 16.$" --stdout "^ +default 4\\.$"
            --stdout "^  --stride S +elements between lanes\\. 1\\.\\.64. default 1\\.\\.33\\.$" -- ${CP_BIN} smem --help)
cp_cli_test(help_stride_width 0 --stdout "^  --width W +bytes per element\\. 4, 8, 16 or 32. default 4\\.$"
            --stdout "^  --size BYTES +useful bytes per buffer, K/M/G suffixes\\. 4K\\.\\.16G. default$"
            --stdout "^ +256M\\.$"
            -- ${CP_BIN} --help)
cp_cli_test(help_expr_index 0 --stdout "^  --index EXPR" --stdout "^  --param NAME=VALUES" -- ${CP_BIN} expr --help)
foreach(command trace compare doctor)
  cp_cli_test(help_${command} 0 --no-stderr --max-width 80 --stdout "^Usage: coalprobe ${command}"
              --stdout "^Examples:" --stdout "^  coalprobe ${command} " --stdout "^Exit codes: "
              -- ${CP_BIN} ${command} --help)
  cp_cli_test(help_command_${command} 0 --no-stderr --stdout "^Usage: coalprobe ${command}"
              -- ${CP_BIN} help ${command})
endforeach()
cp_cli_test(help_width 0 --no-stderr --max-width 80 --stdout "^Families" --stdout "^  trace +"
            --stdout "^  doctor +" -- ${CP_BIN} --help)
cp_cli_test(help_bare 0 --no-stderr --stdout "^Usage: coalprobe \\[FAMILY\\]" -- ${CP_BIN} help)
cp_cli_test(help_unknown 2 --no-stdout --stderr "^coalprobe: unknown command 'gemn'"
            --stderr "^hint: did you mean 'gemm'\\?" -- ${CP_BIN} help gemn)
cp_cli_test(help_two 2 --no-stdout --stderr "help takes one command" -- ${CP_BIN} help gemm smem)
# an unknown command: the nearest, and every command (trace, compare and doctor too)
cp_cli_test(bad_command_nearest 2 --no-stdout --stderr "^coalprobe: unknown command 'doctr'"
            --stderr "^hint: did you mean 'doctor'\\? commands are stride, layout, gemm, gather, smem, transpose, expr, readonly, async, atomic, trace, show, compare, doctor, and help$"
            -- ${CP_BIN} doctr)
cp_cli_test(bad_command_far 2 --no-stdout --stderr "^hint: commands are stride, .*, trace, show, compare, doctor, and help"
            -- ${CP_BIN} frobnicate)
# the man page and the completions: what the build writes, from the same tables
add_test(NAME cli.completions COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/completions.sh ${CP_BIN}
         ${CP_GOLDEN}/trace)
set_tests_properties(cli.completions PROPERTIES LABELS cli ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
add_test(NAME cli.man_matches_help COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/man_matches_help.sh ${CP_BIN})
set_tests_properties(cli.man_matches_help PROPERTIES LABELS cli ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
add_test(NAME cli.docs_gemm_help COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/docs_help.sh ${CP_BIN}
         ${PROJECT_SOURCE_DIR}/docs/demos.md)
set_tests_properties(cli.docs_gemm_help PROPERTIES LABELS cli)
# an unknown option: the nearest, and the help of the family given
cp_cli_test(bad_option_nearest 2 --no-stdout --stderr "^coalprobe: unknown option '--stirde=2'"
            --stderr "^hint: did you mean --stride\\? see coalprobe --help$" -- ${CP_BIN} --stirde=2)
cp_cli_test(bad_option_family 2 --no-stdout --stderr "^coalprobe: unknown option '--varient'"
            --stderr "^hint: did you mean --variant\\? see coalprobe gemm --help$" -- ${CP_BIN} gemm --varient naive)
