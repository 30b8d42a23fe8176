# tests/cli/trace_inject.cmake: CLI tests of trace's launcher and injection library: processes that
# outlive the traced program, the C locale in raw files, a user's own CUDA_INJECTION64_PATH.
