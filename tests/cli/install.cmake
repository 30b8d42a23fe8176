# tests/cli/install.cmake: the install (cmake --install into a temporary prefix, the installed
# binary run from there, its man page and completions) and the packages cpack builds.

add_test(NAME cli.install COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/install.sh ${PROJECT_BINARY_DIR})
set_tests_properties(cli.install PROPERTIES LABELS cli TIMEOUT 300 ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
# cpack compresses the binary twice (about 25 s on 2 cores): label package, out of the unit and
# CLI tests scripts/test.sh repeats four at once; not again for the sanitizer build
add_test(NAME package.deb_tgz COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/package.sh ${PROJECT_BINARY_DIR})
set_tests_properties(package.deb_tgz PROPERTIES LABELS package TIMEOUT 600 SKIP_RETURN_CODE 77
                     ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
if(COALPROBE_SANITIZE)
  set_tests_properties(package.deb_tgz PROPERTIES DISABLED TRUE)
endif()
# the Python package's unit tests against the build tree (python/tests; docs/python.md)
add_test(NAME cli.python_package COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/python_package.sh ${PROJECT_BINARY_DIR})
set_tests_properties(cli.python_package PROPERTIES LABELS cli TIMEOUT 300 ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
