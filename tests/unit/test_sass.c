/* test_sass.c: reading the SASS of coalprobe's kernels: the opcode of a cuobjdump line, and the
 * search through a cuobjdump stand-in on PATH (the real one is not needed). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cp_test.h"
#include "measure/cp_sass.h"

static int pick_table(const char *opcode, const char *line)
{
    return strncmp(opcode, "LDG", 3) == 0 ||
           (strncmp(opcode, "LDC", 3) == 0 && strstr(line, "c[0x3]") != NULL);
}

static void test_line_opcode(void)
{
    char op[32];
    CHECK(cp_sass_line_opcode("        /*0080*/                   LDG.E.CONSTANT R3, "
                              "desc[UR4][R2.64] ;",
                              op, sizeof op));
    CHECK(strcmp(op, "LDG.E.CONSTANT") == 0);
    CHECK(cp_sass_line_opcode("  /*0040*/  @!PT LDS RZ, [RZ] ;", op, sizeof op));
    CHECK(strcmp(op, "LDS") == 0);
    CHECK(cp_sass_line_opcode("/*0010*/ @P0 EXIT ;", op, sizeof op) && strcmp(op, "EXIT") == 0);
    CHECK(!cp_sass_line_opcode("        Function : _Z6kernelv", op, sizeof op));
    CHECK(!cp_sass_line_opcode("   /* 0x000fc40000000f00 */", op, sizeof op));
    CHECK(!cp_sass_line_opcode("", op, sizeof op));
}

/* A cuobjdump stand-in that prints a listing where the parameter load (bank 0) comes before the
 * table's (bank 3), and records its arguments. */
static void test_find_with_stand_in(void)
{
    char dir[] = "/tmp/cp_test_sass_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char tool[256], args[256];
    snprintf(tool, sizeof tool, "%s/cuobjdump", dir);
    snprintf(args, sizeof args, "%s/args", dir);
    FILE *f = fopen(tool, "w");
    CHECK(f != NULL);
    fprintf(f,
            "#!/bin/sh\necho \"$@\" > %s\n"
            "echo '        Function : _ZN12_GLOBAL__N_1kEv'\n"
            "echo '        /*0000*/                   LDC R1, c[0x0][0x28] ;'\n"
            "echo '        /*0060*/                   LDC R5, c[0x3][R2] ;'\n"
            "echo '        /*0070*/                   STG.E desc[UR4][R2.64], R5 ;'\n",
            args);
    fclose(f);
    chmod(tool, 0755);
    const char *old = getenv("PATH");
    char *saved = old ? strdup(old) : NULL;
    setenv("PATH", dir, 1);
    char op[32] = "", why[120] = "";
    CHECK(cp_sass_find_opcode(90, "_ZN12_GLOBAL__N_1kEv", pick_table, op, sizeof op, why,
                              sizeof why));
    CHECK(strcmp(op, "LDC") == 0);
    FILE *a = fopen(args, "r");
    char line[512] = "";
    CHECK(a && fgets(line, sizeof line, a));
    if (a)
        fclose(a);
    CHECK_STR_CONTAINS(line, "-sass -arch sm_90 -fun _ZN12_GLOBAL__N_1kEv /");
    /* a listing without the instruction: not found, and why */
    f = fopen(tool, "w");
    CHECK(f != NULL);
    fprintf(f, "#!/bin/sh\necho '        /*0000*/                   LDC R1, c[0x0][0x28] ;'\n");
    fclose(f);
    CHECK(!cp_sass_find_opcode(90, "k", pick_table, op, sizeof op, why, sizeof why));
    CHECK_STR_CONTAINS(why, "no such instruction");
    /* no cuobjdump at all (where the toolkit's is not installed either) */
    unlink(tool);
    struct stat sb;
    if (stat("/usr/local/cuda/bin/cuobjdump", &sb) != 0) {
        CHECK(!cp_sass_find_opcode(90, "k", pick_table, op, sizeof op, why, sizeof why));
        CHECK_STR_CONTAINS(why, "cuobjdump could not run");
    }
    unlink(args);
    rmdir(dir);
    if (saved) {
        setenv("PATH", saved, 1);
        free(saved);
    }
}

int main(void)
{
    test_line_opcode();
    test_find_with_stand_in();
    return cp_test_finish();
}
