/* fuzz_cli.c: libFuzzer target for the argument parser and what follows it without a GPU: the
 * input, split at NUL bytes, is an argument vector; when it parses, the plan is built and the
 * first configurations are predicted and explained. The compare command's parser reads the
 * same words. */
#include "cp_fuzz.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cp_cli.h"
#include "report/cp_explain.h"
#include "model/cp_model.h"
#include "app/cp_plan.h"

#define FUZZ_MAX_ARGS 24

/* The command table (cp_commands.c) names each command's main; this target only parses, so it
 * links none of them: reaching one is a bug of the harness. */
int cp_trace_main(int argc, char **argv);
int cp_show_main(int argc, char **argv);
int cp_compare_main(int argc, char **argv);
int cp_doctor_main(int argc, char **argv);
int cp_trace_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    abort();
}
int cp_show_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    abort();
}
int cp_compare_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    abort();
}
int cp_doctor_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = cp_fuzz_text(data, size);
    if (!text)
        return 0;
    char *argv[FUZZ_MAX_ARGS + 1];
    int argc = 0;
    argv[argc++] = "coalprobe";
    for (size_t i = 0; i < size && argc < FUZZ_MAX_ARGS;) {
        argv[argc++] = text + i;
        i += strlen(text + i) + 1;
    }
    argv[argc] = NULL;
    cp_options o;
    cp_status st;
    cp_status_clear(&st);
    cp_compare_options co; /* the compare command's parser takes the same words */
    cp_cli_parse_compare(argc, argv, &co, &st);
    if (cp_cli_parse(argc, argv, &o, &st) == CP_EXIT_OK) {
        cp_config *configs = NULL;
        size_t n = 0;
        cp_plan_absent absent;
        /* --explain checks every thread of an expr index while the plan is built: fine for
         * coalprobe, too slow for a fuzzer at the default 64 MB (16M evaluations) */
        if (o.explain && o.size_bytes > (1u << 18))
            o.size_bytes = 1u << 18;
        if (!o.allow_large_sweep && cp_plan_build(&o, &configs, &n, &absent, &st) == CP_EXIT_OK) {
            FILE *null = fopen("/dev/null", "w");
            for (size_t i = 0; i < n && i < 4; i++) {
                cp_prediction p;
                /* gather, expr and readonly may count every warp (expr's explain checks every
                 * thread): fine for coalprobe, too slow for a fuzzer */
                int every_warp = configs[i].family == CP_FAMILY_GATHER ||
                                 configs[i].family == CP_FAMILY_EXPR ||
                                 configs[i].family == CP_FAMILY_READONLY;
                if (every_warp && configs[i].elements > (1u << 16))
                    continue;
                cp_model_predict(&configs[i], &p, &st);
                if (null)
                    cp_explain_write(null, &configs[i], o.warp, &st);
            }
            if (null)
                fclose(null);
        }
        free(configs);
    }
    cp_cli_free(&o);
    free(text);
    return 0;
}
