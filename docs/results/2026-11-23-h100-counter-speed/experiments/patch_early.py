import sys
root, where = sys.argv[1], sys.argv[2]
p=root+'/src/measure/cp_measure_cuda.c'; s=open(p).read()
old_create="""        if (!opt->counters_now &&
            pthread_create(&s->cupti_thread, NULL, cp_cuda_cupti_thread, s) == 0) {
            s->cupti_pending = 1;
        } else {"""
assert old_create in s
s=s.replace(old_create,"""        if (!opt->counters_now && s->cupti_pending) {
        } else {""")
early="""    if (opt->counters && !opt->counters_now) {
        s->cupti_groups = CP_CUPTI_GROUP_GLOBAL | CP_CUPTI_GROUP_OCCUPANCY |
                          (opt->shared_counters ? CP_CUPTI_GROUP_SHARED : 0u) |
                          (opt->requests_as_instructions ? CP_CUPTI_REQUESTS_AS_INSTRUCTIONS : 0u);
        if (pthread_create(&s->cupti_thread, NULL, cp_cuda_cupti_thread, s) == 0)
            s->cupti_pending = 1;
    }
"""
if where=='setup':
    old="    s->opt = *opt;\n    int rc = cp_cuda_setup(s, st);\n"
    assert old in s
    s=s.replace(old,"    s->opt = *opt;\n"+early+"    int rc = cp_cuda_setup(s, st);\n")
else:
    old="""    cp_phase_begin(CP_PHASE_DRIVER);
    int found = cp_cuda_find_device(opt->device, no_device, st);
    cp_phase_end();
    CP_TRY(found);
    cp_cuda_state *s = calloc(1, sizeof *s);
    if (!s)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    s->opt = *opt;
"""
    assert old in s
    s=s.replace(old,"""    cp_cuda_state *s = calloc(1, sizeof *s);
    if (!s)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    s->opt = *opt;
"""+early+"""    cp_phase_begin(CP_PHASE_DRIVER);
    int found = cp_cuda_find_device(opt->device, no_device, st);
    cp_phase_end();
    CP_TRY(found);
""")
open(p,'w').write(s)
