# tests/cli/setup.cmake: what scripts/setup.sh sets up, and tests that cannot hide: a test that
# needs a tool the set-up installs skips without it, but fails under CI (CI=true).

add_test(NAME cli.setup_ci COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/setup_ci.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(cli.setup_ci PROPERTIES LABELS cli TIMEOUT 120)
# docs/results/README.md indexes every results folder; every citation of one exists
add_test(NAME cli.results_index COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/results_index.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(cli.results_index PROPERTIES LABELS cli TIMEOUT 120)
# scripts/setup.sh says first what it will install and shows the build's progress (stubs for
# apt-get, cmake and nvcc: nothing is installed or built)
add_test(NAME cli.setup_script COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/setup_script.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(cli.setup_script PROPERTIES LABELS cli TIMEOUT 120)
