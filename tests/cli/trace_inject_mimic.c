/* trace_inject_mimic.c: a traced "program" for the launcher's tests without a GPU: it loads
 * coalprobe's injection library and calls InitializeInjection as the CUDA driver would (with no
 * driver loaded, the library writes its raw file, locked, and its end record at exit), in a child
 * that outlives the program or in the program itself with a child forked after.
 *
 * usage: trace_inject_mimic late LIBRARY STDERR_FILE
 *          a child initialises, the program exits once it has; the child then waits until
 *          coalprobe's STDERR_FILE holds "coalprobe: trace: " (the launcher waits for it, or gave
 *          up) or the raw directory is gone (nobody waited), and ends, writing its end record
 *        trace_inject_mimic fork-after LIBRARY
 *          the program initialises, forks a child that holds on until the raw directory is gone,
 *          and exits: the launcher must not wait for the child, which never wrote a raw file
 * Every wait is for an event, bounded by 60 s. Exit status 0, or 1 on a setup failure. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../cp_sample.h"

static int initialize(const char *library)
{
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    int (*init)(void) = lib ? (int (*)(void))dlsym(lib, "InitializeInjection") : NULL;
    if (!init) {
        fprintf(stderr, "trace_inject_mimic: %s\n", dlerror());
        return -1;
    }
    init();
    return 0;
}

static int file_holds(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return strstr(text, needle) != NULL;
}

static void pause_briefly(void)
{
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
}

/* Until the raw directory is gone or (when stderr_file) stderr_file holds the launcher's word. */
static void wait_for_launcher(const char *dir, const char *stderr_file)
{
    struct stat sb;
    for (int i = 0; i < 6000; i++) {
        if (stat(dir, &sb) != 0 || (stderr_file && file_holds(stderr_file, "coalprobe: trace: ")))
            return;
        pause_briefly();
    }
    fprintf(stderr, "trace_inject_mimic: no word from the launcher in 60 s\n");
}

int main(int argc, char **argv)
{
    const char *dir = getenv("COALPROBE_TRACE_DIR");
    if (argc < 3 || !dir || (strcmp(argv[1], "late") == 0 && argc < 4)) {
        fprintf(stderr, "usage: trace_inject_mimic late|fork-after LIBRARY [STDERR_FILE] under "
                        "coalprobe trace\n");
        return 1;
    }
    if (strcmp(argv[1], "fork-after") == 0) {
        if (initialize(argv[2]) != 0)
            return 1;
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            wait_for_launcher(dir, NULL);
            _exit(0);
        }
        return pid < 0 ? 1 : 0;
    }
    int ready[2], parent_alive[2];
    if (pipe(ready) != 0 || pipe(parent_alive) != 0)
        return 1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        close(ready[0]);
        close(parent_alive[1]);
        int ok = initialize(argv[2]) == 0;
        char c = ok ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1 || !ok)
            _exit(1);
        close(ready[1]);
        while (read(parent_alive[0], &c, 1) > 0) /* EOF: the program has exited */
            ;
        wait_for_launcher(dir, argv[3]);
        return 0; /* exit: the library writes the end record and releases its lock */
    }
    return cp_sample_parent_ends(ready, parent_alive, pid);
}
