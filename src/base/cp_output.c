/* cp_output.c: writing reports atomically: to a temporary file renamed into place. */
#define _POSIX_C_SOURCE 200809L
#include "cp_output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cp_output_open(cp_output *out, const char *path, cp_status *st)
{
    memset(out, 0, sizeof *out);
    if (!path || strcmp(path, "-") == 0) {
        out->file = stdout;
        return CP_EXIT_OK;
    }
    size_t len = strlen(path);
    out->path = strdup(path);
    out->temp_path = malloc(len + 16);
    if (!out->path || !out->temp_path) {
        cp_output_abort(out);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    }
    snprintf(out->temp_path, len + 16, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(out->temp_path);
    if (fd < 0) {
        int e = errno;
        free(out->temp_path);
        out->temp_path = NULL;
        cp_output_abort(out);
        cp_status_set(st, CP_EXIT_RUNTIME, "cannot write '%s': %s", path, strerror(e));
        cp_status_hint(st, "check that the directory exists and is writable");
        return CP_EXIT_RUNTIME;
    }
    out->file = fdopen(fd, "w");
    if (!out->file) {
        int e = errno;
        close(fd);
        cp_output_abort(out);
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot open '%s': %s", path, strerror(e));
    }
    return CP_EXIT_OK;
}

int cp_output_commit(cp_output *out, cp_status *st)
{
    if (!out->file)
        return CP_EXIT_OK;
    if (!out->path) {
        if (fflush(out->file) != 0 || ferror(out->file))
            return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write to standard output: %s",
                                 strerror(errno));
        out->file = NULL;
        return CP_EXIT_OK;
    }
    int failed = fflush(out->file) != 0 || ferror(out->file);
    failed |= fclose(out->file) != 0;
    out->file = NULL;
    if (failed || rename(out->temp_path, out->path) != 0) {
        int e = errno;
        cp_status_set(st, CP_EXIT_RUNTIME, "cannot write '%s': %s", out->path, strerror(e));
        cp_output_abort(out);
        return CP_EXIT_RUNTIME;
    }
    free(out->temp_path);
    out->temp_path = NULL;
    cp_output_abort(out);
    return CP_EXIT_OK;
}

void cp_output_abort(cp_output *out)
{
    if (out->file && out->file != stdout)
        fclose(out->file);
    out->file = NULL;
    if (out->temp_path)
        unlink(out->temp_path);
    free(out->temp_path);
    free(out->path);
    out->temp_path = NULL;
    out->path = NULL;
}
