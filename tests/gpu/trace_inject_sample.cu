// trace_inject_sample.cu: a CUDA program for the injection library's GPU tests
// (tests/gpu/trace_inject.sh): a background child that launches its kernels after the program
// exited, and a program that sets a locale with a decimal comma before it uses CUDA.
// Usage: trace_inject_sample background   the child initialises CUDA, the program exits once it
//                                          has, the child then launches 3 times and ends
//        trace_inject_sample locale NAME   setlocale(LC_ALL, NAME), then 3 launches
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <unistd.h>

#include "../cp_sample.h"

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if (!CP_SAMPLE_CUDA_OK("trace_inject_sample", call))                                       \
            return 1;                                                                              \
    } while (0)

static const int kN = 1 << 20;

__global__ void inject_sample_scale(float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = data[i] * 2.0f + 1.0f;
}

static int launch_three(void)
{
    float *d = nullptr;
    CHECK(cudaMalloc(&d, kN * sizeof(float)));
    CHECK(cudaMemset(d, 0, kN * sizeof(float)));
    for (int i = 0; i < 3; i++)
        inject_sample_scale<<<kN / 256, 256>>>(d, kN);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(d));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "locale") == 0) {
        const char *set = setlocale(LC_ALL, argv[2]);
        printf("locale %s, decimal point '%s'\n", set ? set : "(refused)",
               localeconv()->decimal_point);
        return launch_three();
    }
    if (argc < 2 || strcmp(argv[1], "background") != 0) {
        fprintf(stderr, "usage: trace_inject_sample background | locale NAME\n");
        return 2;
    }
    int ready[2], parent_alive[2];
    if (pipe(ready) != 0 || pipe(parent_alive) != 0)
        return 1;
    fflush(nullptr);
    pid_t pid = fork(); // before any CUDA call: the child has CUDA of its own
    if (pid < 0)
        return 1;
    if (pid == 0) {
        close(ready[0]);
        close(parent_alive[1]);
        CHECK(cudaFree(nullptr)); // CUDA initialised: the injection's raw file exists, locked
        char c = 'y';
        if (write(ready[1], &c, 1) != 1)
            return 1;
        close(ready[1]);
        while (read(parent_alive[0], &c, 1) > 0) // EOF: the program has exited
            ;
        int rc = launch_three();
        printf("child %ld launched after the program exited\n", (long)getpid());
        return rc;
    }
    return cp_sample_parent_ends(ready, parent_alive, pid);
}
