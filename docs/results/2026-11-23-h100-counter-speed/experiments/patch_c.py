import sys
root=sys.argv[1]
p=root+'/src/measure/cp_measure_cuda.c'; s=open(p).read()
s=s.replace("return configs < 256 ? configs : 256;","return configs < 1024 ? configs : 1024;"); open(p,'w').write(s)
p=root+'/src/measure/cp_cupti.cpp'; s=open(p).read()
reps=[("    int start = range_start(s, st);\n","    double T1 = cp_phase_now();\n    int start = range_start(s, st);\n    fprintf(stderr, \"EDGE start %.4f\\n\", cp_phase_now() - T1);\n"),
("    int stop = range_stop(s, all_submitted, rc == CP_EXIT_OK ? st : &later);\n","    double T2 = cp_phase_now();\n    int stop = range_stop(s, all_submitted, rc == CP_EXIT_OK ? st : &later);\n    fprintf(stderr, \"EDGE stop %.4f\\n\", cp_phase_now() - T2);\n"),
("    if (rc == CP_EXIT_OK)\n        rc = reset_image(s, st);\n","    double T3 = cp_phase_now();\n    if (rc == CP_EXIT_OK)\n        rc = reset_image(s, st);\n    fprintf(stderr, \"EDGE reset %.4f\\n\", cp_phase_now() - T3);\n"),
("    s->counter_data.assign(sp.counterDataSize, 0);\n","    s->counter_data.assign(sp.counterDataSize, 0);\n    fprintf(stderr, \"IMAGE %zu bytes for %zu ranges\\n\", (size_t)sp.counterDataSize, (size_t)s->max_ranges);\n")]
for a,b in reps:
    assert a in s, a
    s=s.replace(a,b)
s='#include <cstdio>\n'+s
open(p,'w').write(s)
