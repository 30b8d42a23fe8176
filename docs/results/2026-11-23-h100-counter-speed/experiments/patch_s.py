import sys
root=sys.argv[1]
p=root+'/src/measure/cp_measure_cuda.c'; s=open(p).read()
s=s.replace('#define CP_CUDA_PEAK_REPS 7\n','#define CP_CUDA_PEAK_REPS 7\nstatic double TT;\n#define TB() (TT = cp_phase_now())\n#define TE(name) fprintf(stderr, "SETUP %-28s %.4f\\n", name, cp_phase_now() - TT)\n',1)
def wrap(stmt, name, count=1):
    global s
    assert stmt in s, stmt
    ind=stmt[:len(stmt)-len(stmt.lstrip())]
    s=s.replace(stmt, ind+"TB();\n"+stmt+ind+"TE(\""+name+"\");\n",count)
wrap("    CP_CUDA_CHECK(st, cudaSetDevice(s->opt.device));\n","setdevice")
wrap("    CP_CUDA_CHECK(st, cudaFree(NULL));\n","cudaFree(NULL) context")
wrap("    CP_TRY(cp_measure_device_facts(s->opt.device, &s->dev, st));\n","device_facts")
wrap("    CP_CUDA_CHECK(st, cudaGetDeviceProperties(&prop, device));\n","  getDeviceProperties")
wrap("    CP_TRY(cp_cuda_sm_limits(device, cp_arch_from_cc(d->cc_major, d->cc_minor), &d->sm, st));\n","  sm_limits")
wrap("    CP_CUDA_CHECK(st, cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));\n","stream")
wrap("    CP_CUDA_CHECK(st, cudaMalloc(&s->flush_buf, s->flush_bytes));\n","flush malloc")
wrap("    CP_CUDA_CHECK(st, cp_kernels_fill_launch(s->flush_buf, s->flush_bytes, 7, s->stream));\n    CP_CUDA_CHECK(st, cudaStreamSynchronize(s->stream));\n","fill+sync")
wrap("    int found = cp_cuda_find_device(opt->device, no_device, st);\n","find_device (cuInit)")
old="    return cp_cuda_check_kernels(d, st);\n}"
assert old in s
s=s.replace(old,"    TB();\n    int rck = cp_cuda_check_kernels(d, st);\n    TE(\"  check_kernels\");\n    return rck;\n}")
open(p,'w').write(s)
