/* cp_inject_launch.c: the arguments of a launch call, from CUPTI's parameter structs
 * (cp_inject_launch.h). */
#include "cp_inject_launch.h"

#include <string.h>

/* The fields a kernel launch call's parameter struct p shares, into a. */
#define CP_INJECT_LAUNCH_FIELDS(a, p)                                                              \
    do {                                                                                           \
        (a)->function = (p)->f;                                                                    \
        (a)->stream = (p)->hStream;                                                                \
        (a)->params = (p)->kernelParams;                                                           \
        (a)->shape = (cp_inject_shape){{(p)->gridDimX, (p)->gridDimY, (p)->gridDimZ},              \
                                       {(p)->blockDimX, (p)->blockDimY, (p)->blockDimZ},           \
                                       (p)->sharedMemBytes};                                       \
        (a)->has_shape = 1;                                                                        \
    } while (0)

void cp_inject_launch_args_of(CUpti_CallbackId cbid, const void *params, cp_inject_launch_args *a)
{
    memset(a, 0, sizeof *a);
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        CP_INJECT_LAUNCH_FIELDS(a, (const cuLaunchKernel_params *)params);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        CP_INJECT_LAUNCH_FIELDS(a, (const cuLaunchCooperativeKernel_params *)params);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const cuLaunchKernelEx_params *p = params;
        const CUlaunchConfig *c = p->config;
        a->function = p->f;
        a->params = p->kernelParams;
        if (c) {
            a->stream = c->hStream;
            a->shape = (cp_inject_shape){{c->gridDimX, c->gridDimY, c->gridDimZ},
                                         {c->blockDimX, c->blockDimY, c->blockDimZ},
                                         c->sharedMemBytes};
            a->has_shape = 1;
        }
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
        a->stream = ((const cuGraphLaunch_params *)params)->hStream;
        break;
    default:
        break;
    }
}
