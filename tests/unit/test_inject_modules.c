/* test_inject_modules.c: the cubin of each module and function the traced program loads
 * (cp_inject_modules.c), from hand-made driver callbacks. */
#include "cp_test.h"
/* the module itself, its statics included */
#include "inject/cp_inject_modules.c"
#include "inject/cp_inject_launch.c"

/* The cubin of the function launch call cbid launches, as the injection library reads it. */
static uint32_t cp_inject_modules_launch_crc(CUpti_CallbackId cbid, const void *params)
{
    cp_inject_launch_args a;
    cp_inject_launch_args_of(cbid, params, &a);
    return cp_inject_modules_crc(a.function);
}

/* One driver API call's enter and exit callbacks, with a module-loaded callback between them
 * when crc is not 0. */
static void call(CUpti_CallbackId cbid, void *params, uint32_t crc)
{
    CUresult ok = CUDA_SUCCESS;
    CUpti_CallbackData cb = {
        .callbackSite = CUPTI_API_ENTER, .functionParams = params, .functionReturnValue = &ok};
    CHECK(cp_inject_modules_call(cbid, &cb) == 1);
    if (crc)
        cp_inject_modules_loaded(crc);
    cb.callbackSite = CUPTI_API_EXIT;
    CHECK(cp_inject_modules_call(cbid, &cb) == 1);
}

/* Two modules with a function of one name: each launch names its own cubin. */
static void test_two_modules(void)
{
    CUmodule m1 = (CUmodule)0x100, m2 = (CUmodule)0x200;
    CUfunction f1 = (CUfunction)0x110, f2 = (CUfunction)0x210, f3 = (CUfunction)0x310;
    static const char not_elf[] = "fatbin";
    cuModuleLoadData_params l1 = {.module = &m1, .image = not_elf};
    cuModuleLoadDataEx_params l2 = {.module = &m2, .image = not_elf};
    call(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData, &l1, 0x7c98d035u);
    call(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx, &l2, 0xa217f5c1u);
    cuModuleGetFunction_params g1 = {.hfunc = &f1, .hmod = m1, .name = "triton_poi_0"};
    cuModuleGetFunction_params g2 = {.hfunc = &f2, .hmod = m2, .name = "triton_poi_0"};
    call(CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction, &g1, 0);
    call(CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction, &g2, 0);
    cuLaunchKernel_params k1 = {.f = f1}, k2 = {.f = f2}, k3 = {.f = f3};
    CHECK(cp_inject_modules_launch_crc(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &k1) == 0x7c98d035u);
    CHECK(cp_inject_modules_launch_crc(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, &k2) ==
          0xa217f5c1u);
    /* a function the program got otherwise (the runtime's cuLibrary*): unknown */
    CHECK(cp_inject_modules_launch_crc(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &k3) == 0);
    CUlaunchConfig config = {0};
    cuLaunchKernelEx_params ex = {.config = &config, .f = f2};
    CHECK(cp_inject_modules_launch_crc(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &ex) ==
          0xa217f5c1u);
    /* a load that made no module-loaded callback and no cubin: its functions stay unknown */
    CUmodule m4 = (CUmodule)0x400;
    CUfunction f4 = (CUfunction)0x410;
    cuModuleLoadData_params l4 = {.module = &m4, .image = not_elf};
    call(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData, &l4, 0);
    cuModuleGetFunction_params g4 = {.hfunc = &f4, .hmod = m4, .name = "k"};
    call(CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction, &g4, 0);
    CHECK(cp_inject_modules_crc(f4) == 0);
    /* other calls are not this module's */
    CUpti_CallbackData cb = {.callbackSite = CUPTI_API_ENTER};
    CHECK(cp_inject_modules_call(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &cb) == 0);
    cp_inject_modules_free();
    CHECK(cp_inject_modules_crc(f1) == 0);
}

/* A failed load names no module. */
static void test_failed_load(void)
{
    CUmodule m = (CUmodule)0x500;
    CUfunction f = (CUfunction)0x510;
    CUresult bad = CUDA_ERROR_INVALID_IMAGE;
    cuModuleLoadData_params l = {.module = &m, .image = "x"};
    CUpti_CallbackData cb = {
        .callbackSite = CUPTI_API_ENTER, .functionParams = &l, .functionReturnValue = &bad};
    CHECK(cp_inject_modules_call(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData, &cb) == 1);
    cp_inject_modules_loaded(0x1234u);
    cb.callbackSite = CUPTI_API_EXIT;
    CHECK(cp_inject_modules_call(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData, &cb) == 1);
    cuModuleGetFunction_params g = {.hfunc = &f, .hmod = m, .name = "k"};
    call(CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction, &g, 0);
    CHECK(cp_inject_modules_crc(f) == 0);
    cp_inject_modules_free();
}

int main(void)
{
    test_two_modules();
    test_failed_load();
    return cp_test_finish();
}
