// cp_trace_demangle.cpp: C++ symbol names made readable (abi::__cxa_demangle) behind a C function,
// the trace layer's one C++ file.
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>

extern "C" char *cp_trace_demangle(const char *mangled);

extern "C" char *cp_trace_demangle(const char *mangled)
{
    // only Itanium C++ ABI names (_Z...); anything else (C functions, Triton's names) stays
    if (!mangled || std::strncmp(mangled, "_Z", 2) != 0)
        return nullptr;
    int status = 0;
    char *out = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    if (status != 0) {
        std::free(out);
        return nullptr;
    }
    return out; // malloc'd by __cxa_demangle: the caller frees it with free()
}
