/* cp_gemm_measure.c: measuring the gemm family: the variants' kernels and cuBLAS's SGEMM, their
 * launch and resources, the check of C (a sample against the host, all of it against cuBLAS),
 * and flop/s with the share of cuBLAS's time for the same size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cp_measure_family.h"
#include "cp_gemm_kernels.h"
#include "cp_fill.h"
#include "cp_gemm_config.h"

#define CP_CUDA_GEMM_TOLERANCE 1e-4 /* largest ||C - C_cublas|| / ||C_cublas|| accepted */

/* Why a configuration's kernel has no resources in the report. */
#define CP_CUDA_CUBLAS_RESOURCES                                                                   \
    "not coalprobe's kernel: cuBLAS chooses its own kernels (Nsight Compute shows theirs)"

static int cp_measure_gemm_cublas(cp_cuda_state *s, cp_status *st)
{
    return s->cublas ? CP_EXIT_OK : cp_cublas_open(s->stream, &s->cublas, st);
}

static void cp_measure_gemm_release(cp_cuda_state *s)
{
    cp_cublas_close(s->cublas);
    cudaFree(s->gemm_ref);
    cudaFree(s->norm_sums);
}

/* The variant's kernel, or cuBLAS's GEMM. */
static int cp_measure_gemm_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    if (cfg->variant == CP_GEMM_CUBLAS) {
        CP_TRY(cp_measure_gemm_cublas(r->s, st));
        return cp_cublas_sgemm(r->s->cublas, r->bufs[0], r->bufs[1], r->bufs[2], cfg->m, cfg->n,
                               cfg->k, st);
    }
    CP_CUDA_CHECK(st, cp_kernels_gemm_launch((int)cfg->variant, r->bufs[0], r->bufs[1], r->bufs[2],
                                             cfg->m, cfg->n, cfg->k, r->s->stream));
    return CP_EXIT_OK;
}

static int cp_measure_gemm_resources(const cp_config *c, const cp_rtc_module *expr,
                                     cp_kernel_resources *k, cp_resources *r, cp_status *st)
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    (void)expr;
    if (cfg->variant == CP_GEMM_CUBLAS) {
        snprintf(r->reason, sizeof r->reason, "%s", CP_CUDA_CUBLAS_RESOURCES);
        return CP_EXIT_OK;
    }
    CP_CUDA_CHECK(st, cp_kernels_gemm_resources((int)cfg->variant, cfg->m, cfg->n, cfg->k, k));
    return CP_EXIT_OK;
}

/* All of C. */
static int cp_measure_gemm_poison(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    CP_CUDA_CHECK(st, cudaMemsetAsync(r->bufs[2], 0xFF, cfg->m * cfg->n * 4, r->s->stream));
    return CP_EXIT_OK;
}

/* Checks a sample of C against a host reference computed in double precision. */
static int cp_measure_gemm_verify_sample(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    const int samples = 48;
    for (int s = 0; s < samples; s++) {
        uint64_t row = (cfg->m - 1) * (uint64_t)s / (samples - 1);
        uint64_t col = (cfg->n - 1) * (uint64_t)((s * 7) % samples) / (samples - 1);
        float got;
        CP_CUDA_CHECK(st, cudaMemcpy(&got, (const float *)r->bufs[2] + row * cfg->n + col,
                                     sizeof got, cudaMemcpyDeviceToHost));
        double want = 0, scale = 0;
        for (uint64_t kk = 0; kk < cfg->k; kk++) {
            double a = cp_fill_value(row * cfg->k + kk, cp_cuda_seed(0));
            double b = cp_fill_value(kk * cfg->n + col, cp_cuda_seed(1));
            want += a * b;
            scale += fabs(a * b);
        }
        if (!(fabs(got - want) <= 1e-4 * scale))
            return cp_cuda_wrong(st, "C element", row * cfg->n + col, got, (float)want);
    }
    return CP_EXIT_OK;
}

/* Compares C with cuBLAS's C for the same inputs: ||C - C_ref|| / ||C_ref|| into m, and an
 * error above CP_CUDA_GEMM_TOLERANCE. */
static int cp_measure_gemm_reference(const cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    cp_cuda_state *s = r->s;
    const cp_config *c = r->c;
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    uint64_t bytes = cfg->m * cfg->n * 4;
    if (s->gemm_ref_bytes < bytes) {
        cudaFree(s->gemm_ref);
        s->gemm_ref = NULL;
        s->gemm_ref_bytes = 0;
        CP_CUDA_CHECK(st, cudaMalloc(&s->gemm_ref, bytes));
        s->gemm_ref_bytes = bytes;
    }
    if (!s->norm_sums)
        CP_CUDA_CHECK(st, cudaMalloc((void **)&s->norm_sums, 2 * sizeof(double)));
    CP_TRY(cp_measure_gemm_cublas(s, st));
    CP_TRY(cp_cublas_sgemm(s->cublas, r->bufs[0], r->bufs[1], s->gemm_ref, cfg->m, cfg->n, cfg->k,
                           st));
    CP_CUDA_CHECK(st, cudaMemsetAsync(s->norm_sums, 0, 2 * sizeof(double), s->stream));
    CP_CUDA_CHECK(st, cp_kernels_diff_norm_launch(r->bufs[2], s->gemm_ref, cfg->m * cfg->n,
                                                  s->norm_sums, s->stream));
    double sums[2];
    CP_CUDA_CHECK(
        st, cudaMemcpyAsync(sums, s->norm_sums, sizeof sums, cudaMemcpyDeviceToHost, s->stream));
    CP_CUDA_CHECK(st, cudaStreamSynchronize(s->stream));
    m->rel_error = sums[1] > 0 ? sqrt(sums[0] / sums[1]) : NAN;
    if (!(m->rel_error <= CP_CUDA_GEMM_TOLERANCE)) {
        cp_status_set(st, CP_EXIT_RUNTIME,
                      "wrong GEMM result: ||C - C_cublas|| / ||C_cublas|| is %.3g, above %g",
                      m->rel_error, CP_CUDA_GEMM_TOLERANCE);
        cp_status_hint(st, "this is a bug in coalprobe's %s kernel; please report it",
                       cp_gemm_variant_names[cfg->variant]);
        return CP_EXIT_RUNTIME;
    }
    return CP_EXIT_OK;
}

/* A sample of C against the host in double precision, and all of C against cuBLAS. */
static int cp_measure_gemm_verify(const cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    CP_TRY(cp_measure_gemm_verify_sample(r, st));
    return cp_measure_gemm_reference(r, m, st);
}

/* cuBLAS's median time for the GEMM size of r, timed like every kernel (once per size). */
static int cp_measure_gemm_cublas_time(const cp_cuda_run *r, const cp_measurement *m,
                                       double *seconds, cp_status *st)
{
    cp_cuda_state *s = r->s;
    const cp_config *c = r->c;
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    if (cfg->variant == CP_GEMM_CUBLAS) {
        *seconds = m->time_median_s;
        return CP_EXIT_OK;
    }
    for (size_t i = 0; i < s->ncublas_times; i++) {
        if (s->cublas_times[i].m == cfg->m && s->cublas_times[i].n == cfg->n &&
            s->cublas_times[i].k == cfg->k) {
            *seconds = s->cublas_times[i].seconds;
            return CP_EXIT_OK;
        }
    }
    cp_config ref = *c;
    cp_gemm_config_of(&ref)->variant = CP_GEMM_CUBLAS;
    cp_cuda_run rr = *r;
    rr.c = &ref;
    rr.bufs[2] = s->gemm_ref; /* C is checked already; cuBLAS writes its own */
    cp_measurement t;
    cp_measurement_clear(&t);
    CP_TRY(cp_cuda_time(&rr, CP_CUDA_WARMUPS, &t, st));
    *seconds = t.time_median_s;
    if (s->ncublas_times < CP_CUDA_CUBLAS_TIMES) {
        size_t i = s->ncublas_times++;
        s->cublas_times[i].m = cfg->m;
        s->cublas_times[i].n = cfg->n;
        s->cublas_times[i].k = cfg->k;
        s->cublas_times[i].seconds = t.time_median_s;
    }
    return CP_EXIT_OK;
}

/* flop/s, and cuBLAS's median time for the same size as a share of this one. */
static int cp_measure_gemm_after_timing(const cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    double cublas_s;
    cp_phase_begin(CP_PHASE_CUBLAS);
    int rc = cp_measure_gemm_cublas_time(r, m, &cublas_s, st);
    cp_phase_end();
    if (rc != CP_EXIT_OK)
        return rc;
    m->flop_per_s = 2.0 * (double)cfg->m * (double)cfg->n * (double)cfg->k / m->time_median_s;
    m->pct_of_cublas = 100.0 * cublas_s / m->time_median_s;
    return CP_EXIT_OK;
}

/* The hooks the CUDA backend calls (cp_measure_family.h). */
const cp_measure_family cp_gemm_measure = {
    .launch = cp_measure_gemm_launch,
    .poison = cp_measure_gemm_poison,
    .verify = cp_measure_gemm_verify,
    .resources = cp_measure_gemm_resources,
    .after_timing = cp_measure_gemm_after_timing,
    .release = cp_measure_gemm_release,
};
