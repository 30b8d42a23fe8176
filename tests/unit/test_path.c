/* test_path.c: unit tests of cp_path: the same file by other names, entries of a directory. */
#define _POSIX_C_SOURCE 200809L
#include "cp_test.h"
#include "base/cp_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
    char dir[] = "/tmp/cp-test-path-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char a[256], b[256], link[256], dotted[256], sub[256], missing[256], slash[256];
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    snprintf(link, sizeof link, "%s/link.json", dir);
    snprintf(dotted, sizeof dotted, "%s/./sub/../a.json", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(missing, sizeof missing, "%s/sub/new.tsv", dir);
    snprintf(slash, sizeof slash, "%s/", dir);
    fclose(fopen(a, "w"));
    fclose(fopen(b, "w"));
    CHECK(symlink("a.json", link) == 0);
    CHECK(mkdir(sub, 0700) == 0);

    CHECK(cp_path_same_file(a, a));
    CHECK(cp_path_same_file(a, link));
    CHECK(cp_path_same_file(dotted, a));
    CHECK(!cp_path_same_file(a, b));
    CHECK(!cp_path_same_file(a, missing));
    CHECK(!cp_path_same_file(NULL, a));

    const char *name = NULL;
    CHECK(cp_path_in_directory(a, dir, &name) && strcmp(name, "a.json") == 0);
    CHECK(cp_path_in_directory(dotted, slash, &name) && strcmp(name, "a.json") == 0);
    CHECK(cp_path_in_directory(missing, sub, &name) && strcmp(name, "new.tsv") == 0);
    CHECK(!cp_path_in_directory(missing, dir, &name));
    CHECK(!cp_path_in_directory(a, sub, &name));
    CHECK(!cp_path_in_directory("no/such/dir/x", dir, &name));
    if (chdir(dir) == 0)
        CHECK(cp_path_in_directory("a.json", ".", &name) && strcmp(name, "a.json") == 0);

    unlink(link);
    unlink(a);
    unlink(b);
    rmdir(sub);
    rmdir(dir);
    return cp_test_finish();
}
