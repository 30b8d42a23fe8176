# tests/cli/trace_inject.cmake: CLI tests of trace's launcher and injection library: processes that
# outlive the traced program, the C locale in raw files, a user's own CUDA_INJECTION64_PATH, the
# raw directory's cleanup after a program that replaced it by a link.

# the injection library's number formatting compiled into its locale test
target_sources(test_inject_locale PRIVATE ${PROJECT_SOURCE_DIR}/src/inject/cp_inject_format.c)
target_compile_definitions(test_inject_locale PRIVATE
                           CP_INJECT_LIBRARY="$<TARGET_FILE:coalprobe_inject>")
add_dependencies(test_inject_locale coalprobe_inject)
# no locale with a decimal comma to be had (none installed, no localedef): skipped, and says so
set_tests_properties(unit.test_inject_locale PROPERTIES SKIP_RETURN_CODE 77)

# processes still writing raw files when the program ends: a program played by
# trace_inject_mimic.c with the real injection library (no GPU needed)
add_executable(trace_inject_mimic ${CMAKE_CURRENT_SOURCE_DIR}/cli/trace_inject_mimic.c)
target_compile_options(trace_inject_mimic PRIVATE ${CP_HOST_WARNINGS})
target_link_libraries(trace_inject_mimic PRIVATE ${CMAKE_DL_LIBS})
add_dependencies(trace_inject_mimic coalprobe_inject)
foreach(mode waits bound fork_after)
  add_test(NAME cli.trace_inject_${mode}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/trace_inject_wait.sh ${mode} ${CP_BIN}
                   $<TARGET_FILE:trace_inject_mimic> $<TARGET_FILE:coalprobe_inject>)
  set_tests_properties(cli.trace_inject_${mode} PROPERTIES LABELS cli TIMEOUT 180
                       ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
endforeach()
# a traced program that replaces its raw directory by a link (or moves it, or links a raw file)
# gets coalprobe to remove only what coalprobe made, never the link's target
add_test(NAME cli.trace_cleanup_link
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/trace_cleanup_link.sh ${CP_BIN})
set_tests_properties(cli.trace_cleanup_link PROPERTIES LABELS cli TIMEOUT 180
                     ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
cp_cli_test(trace_inject_wait_bad 2
            --stderr "^coalprobe: trace: COALPROBE_TRACE_WAIT='soon' is not a decimal number of seconds"
            --stderr "^hint: " --no-stdout -- ${CP_BIN} trace -- true)
set_property(TEST cli.trace_inject_wait_bad APPEND PROPERTY ENVIRONMENT "COALPROBE_TRACE_WAIT=soon")
# decimal only, as every number: strtod's hex (0x10) is refused
cp_cli_test(trace_inject_wait_hex 2
            --stderr "^coalprobe: trace: COALPROBE_TRACE_WAIT='0x10' is not a decimal number of seconds from 0 to"
            --stderr "^hint: " --no-stdout -- ${CP_BIN} trace -- true)
set_property(TEST cli.trace_inject_wait_hex APPEND PROPERTY ENVIRONMENT "COALPROBE_TRACE_WAIT=0x10")

# a user's own CUDA_INJECTION64_PATH: replaced for the run, said on stderr and in the report
cp_cli_test(trace_inject_replaced 0
            --stderr "^coalprobe: note: CUDA_INJECTION64_PATH=/opt/other/libtool_inject\\.so is replaced by coalprobe's injection library for this run$"
            --stdout "^note: CUDA_INJECTION64_PATH=/opt/other/libtool_inject\\.so was replaced by coalprobe's injection"
            -- ${CP_BIN} trace -- true)
set_property(TEST cli.trace_inject_replaced APPEND PROPERTY ENVIRONMENT
             "CUDA_INJECTION64_PATH=/opt/other/libtool_inject.so")
cp_cli_test(trace_inject_replaced_json 0 --json
            --stdout "\"text\":[[:space:]]*\"CUDA_INJECTION64_PATH=/opt/other/libtool_inject\\.so was replaced"
            -- ${CP_BIN} trace --format json -- true)
set_property(TEST cli.trace_inject_replaced_json APPEND PROPERTY ENVIRONMENT
             "CUDA_INJECTION64_PATH=/opt/other/libtool_inject.so")

# on the GPU: a child launching after the program exited, and a program in a decimal-comma locale
add_executable(trace_inject_sample ${PROJECT_SOURCE_DIR}/tests/gpu/trace_inject_sample.cu)
cp_gpu_test(trace_inject 600 sh ${PROJECT_SOURCE_DIR}/tests/gpu/trace_inject.sh ${CP_BIN}
            $<TARGET_FILE:trace_inject_sample>)
