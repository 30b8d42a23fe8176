/* cp_inject_launch.h: what a launch call's parameters say (cuLaunchKernel, cuLaunchKernelEx,
 * cuLaunchCooperativeKernel and their _ptsz forms, cuGraphLaunch), read once at its enter
 * callback: the function, the stream, the kernel parameters and the shape. Runs inside the
 * traced program: CUPTI's callback parameter structs only. */
#ifndef CP_INJECT_LAUNCH_H
#define CP_INJECT_LAUNCH_H

#include <cuda.h>
#include <cupti.h>

#include "cp_inject_select.h" /* cp_inject_shape */

typedef struct cp_inject_launch_args {
    CUfunction function; /* NULL: not a kernel launch (a graph's, another call) */
    CUstream stream;     /* NULL: the legacy stream, or unknown */
    void **params;       /* the kernel parameters; NULL: none, or passed through `extra` */
    cp_inject_shape shape;
    int has_shape; /* 0: the call carries no shape this library reads */
} cp_inject_launch_args;

/* The arguments of launch call cbid with CUPTI's parameters params (all zero for another call). */
void cp_inject_launch_args_of(CUpti_CallbackId cbid, const void *params, cp_inject_launch_args *a);

#endif
