/* cp_path.c: whether two names reach one file, by device and inode. */
#define _POSIX_C_SOURCE 200809L
#include "cp_path.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cp_path_same_file(const char *path, const char *other)
{
    struct stat a, b;
    if (!path || !other || stat(path, &a) != 0 || stat(other, &b) != 0)
        return 0;
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int cp_path_in_directory(const char *path, const char *dir, const char **name)
{
    if (!path || !dir || !*path)
        return 0;
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/') /* "dir/file/" names file */
        len--;
    size_t cut = len;
    while (cut > 0 && path[cut - 1] != '/')
        cut--;
    char *parent = cut == 0 ? strdup(".") : strndup(path, cut);
    if (!parent)
        return 0;
    struct stat p, d;
    int inside =
        stat(parent, &p) == 0 && stat(dir, &d) == 0 && p.st_dev == d.st_dev && p.st_ino == d.st_ino;
    free(parent);
    if (inside && name)
        *name = path + cut;
    return inside;
}
