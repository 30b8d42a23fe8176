/* test_output.c: the rules every output file follows (src/base/cp_output.h), on files this test
 * creates in a directory of its own (never the machine's /dev): a new file's mode under umask 022
 * and 077, a replaced file's mode kept, symbolic links followed (chains, relative, dangling,
 * loops), the process's own descriptors (/dev/stdout's /proc/self/fd/1, appended to), a FIFO
 * with a reader and one whose reader leaves early (EPIPE), a Unix socket, a
 * directory and a block device refused, a missing parent, a read-only directory, a write past
 * the file size limit (EFBIG), standard output closed by its reader, a target swapped for a FIFO
 * while the report is written; after every failure no temporary file is left and what was there
 * is unchanged. */
#define _GNU_SOURCE /* makedev, strndup */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cp_base.h"
#include "cp_test.h"

static char g_dir[64]; /* this run's directory */

/* g_dir/name in buf. */
static const char *at(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", g_dir, name);
    return buf;
}

/* Entries in dir, . and .. left out; with temps set only the temporary files left behind (names
 * holding ".tmp-"). -1 when dir cannot be read. */
static int count_in(const char *dir, int temps)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += temps ? strstr(e->d_name, ".tmp-") != NULL
                   : strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static int temps_in(const char *dir)
{
    return count_in(dir, 1);
}

static int entries_in(const char *dir)
{
    return count_in(dir, 0);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The whole file, or NULL; the caller frees. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = cp_test_read_stream(f);
    fclose(f);
    return text;
}

static int file_is(const char *path, const char *want)
{
    char *got = slurp(path);
    int same = got && strcmp(got, want) == 0;
    free(got);
    return same;
}

/* Writes text to path through cp_output; returns the exit code, message in st. */
static int write_report(const char *path, const char *text, cp_status *st)
{
    cp_status_clear(st);
    cp_output out;
    int rc = cp_output_open(&out, path, st);
    if (rc == CP_EXIT_OK)
        rc = cp_output_begin(&out, st);
    if (rc != CP_EXIT_OK)
        return rc;
    fputs(text, out.file);
    return cp_output_close(&out, CP_EXIT_OK, st);
}

/* Writing a report to path fails as a runtime error whose message holds needle (in st). */
static void check_refused(const char *path, const char *needle, cp_status *st)
{
    CHECK(write_report(path, "x\n", st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st->message, needle);
}

static mode_t mode_of(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? sb.st_mode & 07777 : (mode_t)-1;
}

static mode_t type_of(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0 ? sb.st_mode & S_IFMT : 0;
}

/* Waits for child pid; its exit status, or -1 when it did not exit normally. */
static int child_status(pid_t pid)
{
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

/* The reader child pid passed on through fd exactly want, and exited 0. */
static void check_read_back(int fd, pid_t pid, const char *want)
{
    FILE *r = fdopen(fd, "r");
    char *got = r ? cp_test_read_stream(r) : NULL;
    if (r)
        fclose(r);
    CHECK(child_status(pid) == 0);
    CHECK(got && strcmp(got, want) == 0);
    free(got);
}

static void test_new_file_modes(void)
{
    char p[128];
    cp_status st;
    mode_t old = umask(022);
    CHECK(write_report(at(p, sizeof p, "new022.txt"), "a\n", &st) == CP_EXIT_OK);
    CHECK(mode_of(p) == 0644);
    CHECK(file_is(p, "a\n"));
    umask(077);
    CHECK(write_report(at(p, sizeof p, "new077.txt"), "b\n", &st) == CP_EXIT_OK);
    CHECK(mode_of(p) == 0600);
    umask(0);
    CHECK(write_report(at(p, sizeof p, "new000.txt"), "c\n", &st) == CP_EXIT_OK);
    CHECK(mode_of(p) == 0666);
    umask(old);
    CHECK(temps_in(g_dir) == 0);
}

static void test_replaced_file_keeps_mode(void)
{
    char p[128];
    cp_status st;
    static const mode_t modes[] = {0640, 0604, 0600, 0755};
    for (size_t k = 0; k < sizeof modes / sizeof *modes; k++) {
        at(p, sizeof p, "kept.txt");
        put(p, "old\n");
        CHECK(chmod(p, modes[k]) == 0);
        struct stat before, after;
        CHECK(stat(p, &before) == 0);
        CHECK(write_report(p, "new report\n", &st) == CP_EXIT_OK);
        CHECK(stat(p, &after) == 0);
        CHECK((after.st_mode & 07777) == modes[k]);
        CHECK(after.st_ino != before.st_ino); /* replaced, not rewritten in place */
        CHECK(file_is(p, "new report\n"));
    }
    CHECK(temps_in(g_dir) == 0);
}

static void test_symlinks(void)
{
    char p[128], t[128], sub[128];
    cp_status st;
    /* a link to a file: the file is replaced (keeping its mode), the link stays */
    put(at(t, sizeof t, "target.txt"), "old\n");
    CHECK(chmod(t, 0640) == 0);
    CHECK(symlink("target.txt", at(p, sizeof p, "link.txt")) == 0);
    CHECK(write_report(p, "through the link\n", &st) == CP_EXIT_OK);
    CHECK(type_of(p) == S_IFLNK);
    CHECK(file_is(t, "through the link\n"));
    CHECK(mode_of(t) == 0640);
    /* a chain of two links, the second relative to its own directory */
    CHECK(mkdir(at(sub, sizeof sub, "sub"), 0755) == 0);
    CHECK(symlink("../target.txt", at(p, sizeof p, "sub/up.txt")) == 0);
    CHECK(symlink("sub/up.txt", at(p, sizeof p, "chain.txt")) == 0);
    CHECK(write_report(p, "through two links\n", &st) == CP_EXIT_OK);
    CHECK(type_of(p) == S_IFLNK && type_of(at(p, sizeof p, "sub/up.txt")) == S_IFLNK);
    CHECK(file_is(t, "through two links\n"));
    CHECK(temps_in(g_dir) == 0 && temps_in(sub) == 0);
    /* a dangling link: its target is created, in the target's directory */
    CHECK(symlink("sub/created.txt", at(p, sizeof p, "dangling.txt")) == 0);
    CHECK(write_report(p, "created\n", &st) == CP_EXIT_OK);
    CHECK(type_of(p) == S_IFLNK);
    CHECK(file_is(at(t, sizeof t, "sub/created.txt"), "created\n"));
    /* a dangling link into a directory that does not exist: an error naming both */
    CHECK(symlink("nowhere/x.txt", at(p, sizeof p, "broken.txt")) == 0);
    check_refused(p, "broken.txt' (the link's target '", &st);
    CHECK_STR_CONTAINS(st.message, "nowhere/x.txt'): No such file or directory");
    CHECK(type_of(p) == S_IFLNK);
    /* a loop of links */
    CHECK(symlink("loop2", at(p, sizeof p, "loop1")) == 0);
    CHECK(symlink("loop1", at(p, sizeof p, "loop2")) == 0);
    check_refused(p, strerror(ELOOP), &st);
    CHECK(type_of(p) == S_IFLNK);
    CHECK(temps_in(g_dir) == 0 && temps_in(sub) == 0);
}

/* Forks a reader of the FIFO at path that copies up to `keep` bytes to pipe_w and then closes
 * the FIFO (keep 0: reads everything). */
static pid_t fifo_reader(const char *path, int pipe_r, int pipe_w, size_t keep)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    alarm(60); /* never outlive a failed test */
    close(pipe_r);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        _exit(2);
    char buf[4096];
    size_t total = 0;
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) {
        size_t take = keep && total + (size_t)n > keep ? keep - total : (size_t)n;
        if (write(pipe_w, buf, take) != (ssize_t)take)
            _exit(3);
        total += take;
        if (keep && total >= keep)
            break;
    }
    close(fd);
    _exit(0);
}

/* Opens and closes the FIFO for writing, so that a reader still waiting in open() (the code
 * under test never opened it) sees the end of file rather than hanging the test. */
static void release_reader(const char *path)
{
    int fd = open(path, O_WRONLY | O_NONBLOCK);
    if (fd >= 0)
        close(fd);
}

static void test_fifo(void)
{
    char p[128];
    cp_status st;
    at(p, sizeof p, "fifo");
    CHECK(mkfifo(p, 0600) == 0);
    /* a reader gets the whole report; the FIFO stays a FIFO */
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t pid = fifo_reader(p, fds[0], fds[1], 0);
    close(fds[1]);
    CHECK(write_report(p, "report through a FIFO\n", &st) == CP_EXIT_OK);
    release_reader(p);
    check_read_back(fds[0], pid, "report through a FIFO\n");
    CHECK(type_of(p) == S_IFIFO);

    /* a reader that stops after 10 bytes: EPIPE, exit 1 with the path and the reason */
    CHECK(pipe(fds) == 0);
    pid = fifo_reader(p, fds[0], fds[1], 10);
    close(fds[1]);
    cp_output out;
    cp_status_clear(&st);
    CHECK(cp_output_open(&out, p, &st) == CP_EXIT_OK);
    CHECK(cp_output_begin(&out, &st) == CP_EXIT_OK); /* waits for the reader */
    for (int k = 0; k < 4096 && out.file; k++)       /* 1 MB, far more than a pipe holds */
        fputs("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
              "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
              "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
              "0123456789abcdef\n",
              out.file);
    CHECK(cp_output_close(&out, CP_EXIT_OK, &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "cannot write '");
    CHECK_STR_CONTAINS(st.message, "/fifo': Broken pipe");
    CHECK(child_status(pid) == 0);
    close(fds[0]);
    CHECK(type_of(p) == S_IFIFO);
    CHECK(temps_in(g_dir) == 0);
    /* the writer's own failure (it saw the error first) gives way to the path and reason */
    CHECK(pipe(fds) == 0);
    pid = fifo_reader(p, fds[0], fds[1], 1);
    close(fds[1]);
    cp_status_clear(&st);
    CHECK(cp_output_open(&out, p, &st) == CP_EXIT_OK);
    CHECK(cp_output_begin(&out, &st) == CP_EXIT_OK);
    int rc = CP_EXIT_OK;
    for (int k = 0; k < 1 << 16 && rc == CP_EXIT_OK; k++)
        if (fputs("0123456789abcdef0123456789abcdef\n", out.file) < 0 || fflush(out.file) != 0)
            rc = cp_status_set(&st, CP_EXIT_RUNTIME, "cannot write the report: some reason");
    CHECK(rc == CP_EXIT_RUNTIME);
    CHECK(cp_output_close(&out, rc, &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "/fifo': Broken pipe");
    CHECK_STR_CONTAINS(st.hint, "stopped reading");
    CHECK(child_status(pid) == 0);
    close(fds[0]);
}

static void test_socket(void)
{
    char p[128];
    cp_status st;
    at(p, sizeof p, "sock");
    int ls = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    CHECK(strlen(p) < sizeof addr.sun_path);
    memcpy(addr.sun_path, p, strlen(p) + 1 < sizeof addr.sun_path ? strlen(p) + 1 : 0);
    CHECK(ls >= 0 && bind(ls, (struct sockaddr *)&addr, sizeof addr) == 0 && listen(ls, 1) == 0);
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t pid = fork();
    if (pid == 0) { /* accepts one connection and copies it to the pipe */
        alarm(60);
        close(fds[0]);
        int c = accept(ls, NULL, NULL);
        char buf[256];
        for (ssize_t n; c >= 0 && (n = read(c, buf, sizeof buf)) > 0;)
            if (write(fds[1], buf, (size_t)n) != n)
                _exit(3);
        _exit(c >= 0 ? 0 : 2);
    }
    close(fds[1]);
    CHECK(write_report(p, "report through a socket\n", &st) == CP_EXIT_OK);
    check_read_back(fds[0], pid, "report through a socket\n");
    close(ls);
    CHECK(type_of(p) == S_IFSOCK);
    /* nobody listening any more: an error, and the socket stays */
    check_refused(p, "/sock': Connection refused", &st);
    CHECK(type_of(p) == S_IFSOCK);
    CHECK(temps_in(g_dir) == 0);
}

static void test_refused_and_missing(void)
{
    char p[128], d[128];
    cp_status st;
    CHECK(mkdir(at(d, sizeof d, "adir"), 0755) == 0);
    check_refused(d, "/adir': it is a directory", &st);
    CHECK_STR_CONTAINS(st.hint, "give a file name");
    CHECK(entries_in(d) == 0 && type_of(d) == S_IFDIR);
    /* a link to a directory too */
    CHECK(symlink("adir", at(p, sizeof p, "dirlink")) == 0);
    check_refused(p, "it is a directory", &st);
    CHECK(entries_in(d) == 0 && type_of(p) == S_IFLNK);
    /* a missing parent directory */
    int before = entries_in(g_dir);
    check_refused(at(p, sizeof p, "missing/r.json"), "/missing/r.json': No such file or directory",
                  &st);
    CHECK_STR_CONTAINS(st.hint, "directory exists");
    CHECK(entries_in(g_dir) == before);
    /* an empty name */
    check_refused("", "cannot write '': No such file or directory", &st);
    /* a parent that is a file */
    put(at(p, sizeof p, "plain"), "x");
    check_refused(at(p, sizeof p, "plain/r.json"), "Not a directory", &st);
    /* a name as long as a name can be: the temporary name is cut, the report lands */
    char name[256];
    memset(name, 'n', 255);
    name[255] = '\0';
    char *longp = malloc(strlen(g_dir) + 300);
    sprintf(longp, "%s/%s", g_dir, name);
    CHECK(write_report(longp, "long\n", &st) == CP_EXIT_OK);
    CHECK(file_is(longp, "long\n"));
    free(longp);
    CHECK(temps_in(g_dir) == 0);
}

/* Device nodes of the test's own making, as root only (mknod needs CAP_MKNOD): a character
 * device (the null device's numbers, as /dev/null) is written in place and stays a device; a
 * block device (numbers 0:0, which no driver serves) is refused before it is opened. */
static void test_device_nodes(void)
{
    char p[128];
    cp_status st;
    if (mknod(at(p, sizeof p, "null-clone"), S_IFCHR | 0666, makedev(1, 3)) != 0) {
        printf("SKIP device nodes: mknod refused (%s); the FIFO covers writing in place\n",
               strerror(errno));
        return;
    }
    CHECK(write_report(p, "thrown away\n", &st) == CP_EXIT_OK);
    CHECK(type_of(p) == S_IFCHR);
    CHECK(temps_in(g_dir) == 0);
    if (mknod(at(p, sizeof p, "blk"), S_IFBLK | 0600, makedev(0, 0)) != 0) {
        printf("SKIP block device: mknod refused (%s)\n", strerror(errno));
        return;
    }
    check_refused(p, "/blk': it is a block device", &st);
    CHECK(type_of(p) == S_IFBLK);
    CHECK(temps_in(g_dir) == 0);
}

/* A read-only directory refuses the temporary file. Root may write anywhere, so as root the
 * attempt runs in a child that becomes the unprivileged user 65534 first. */
static void test_read_only_directory(void)
{
    char d[128], p[128];
    CHECK(mkdir(at(d, sizeof d, "ro"), 0755) == 0);
    put(at(p, sizeof p, "ro/kept.json"), "precious\n");
    CHECK(chmod(p, 0644) == 0);
    CHECK(chmod(d, 0555) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
            _exit(77);
        if (access(d, W_OK) == 0)
            _exit(78); /* still writable: the test could not fail */
        cp_status st;
        int rc = write_report(p, "new\n", &st);
        int rc2 = write_report(at(p, sizeof p, "ro/new.json"), "new\n", &st);
        int ok = rc == CP_EXIT_RUNTIME && rc2 == CP_EXIT_RUNTIME &&
                 strstr(st.message, "/ro/new.json': Permission denied") != NULL;
        _exit(ok ? 0 : 1);
    }
    int status = child_status(pid);
    if (status == 77 || status == 78) {
        printf("SKIP read-only directory: %s\n",
               status == 77 ? "running as root and cannot become uid 65534"
                            : "the directory stays writable for this user");
    } else {
        CHECK(status == 0);
        CHECK(file_is(at(p, sizeof p, "ro/kept.json"), "precious\n"));
        CHECK(type_of(at(p, sizeof p, "ro/new.json")) == 0);
        CHECK(temps_in(d) == 0 && entries_in(d) == 1);
    }
    chmod(d, 0755);
}

/* A write past RLIMIT_FSIZE (EFBIG, SIGXFSZ caught) in a child, standing in for a full disk:
 * exit 1 with the path and the reason, the file that was there unchanged, no temporary file. */
static void test_write_error_keeps_old_file(void)
{
    char p[128], q[128];
    at(p, sizeof p, "limited.json");
    put(p, "precious\n");
    at(q, sizeof q, "limited-new.json");
    pid_t pid = fork();
    if (pid == 0) {
        cp_output_catch_signals();
        struct rlimit lim = {4096, 4096};
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(77);
        int ok = 1;
        for (int k = 0; k < 2; k++) {
            cp_status st;
            cp_status_clear(&st);
            cp_output out;
            if (cp_output_open(&out, k ? q : p, &st) != CP_EXIT_OK ||
                cp_output_begin(&out, &st) != CP_EXIT_OK)
                _exit(2);
            for (int i = 0; i < 1000; i++)
                fprintf(out.file, "line %d of a report larger than the limit\n", i);
            int rc = cp_output_close(&out, CP_EXIT_OK, &st);
            ok &= rc == CP_EXIT_RUNTIME && strstr(st.message, k ? q : p) &&
                  strstr(st.message, strerror(EFBIG)) && strstr(st.hint, "ulimit -f");
        }
        _exit(ok ? 0 : 1);
    }
    int status = child_status(pid);
    if (status == 77) {
        printf("SKIP write error: setrlimit(RLIMIT_FSIZE) refused\n");
        return;
    }
    CHECK(status == 0);
    CHECK(file_is(p, "precious\n"));
    CHECK(type_of(q) == 0);
    CHECK(temps_in(g_dir) == 0);
}

/* Standard output whose reader has gone: CP_EXIT_PIPE, quietly (no path in a message). */
static void test_stdout_closed(void)
{
    int fds[2];
    CHECK(pipe(fds) == 0);
    close(fds[0]); /* no reader, before the child may write */
    pid_t pid = fork();
    if (pid == 0) {
        cp_output_catch_signals();
        if (dup2(fds[1], STDOUT_FILENO) < 0)
            _exit(2);
        cp_status st;
        cp_status_clear(&st);
        cp_output out;
        if (cp_output_open(&out, "-", &st) != CP_EXIT_OK ||
            cp_output_begin(&out, &st) != CP_EXIT_OK)
            _exit(3);
        fputs("a report\n", out.file);
        _exit(cp_output_close(&out, CP_EXIT_OK, &st) == CP_EXIT_PIPE ? 0 : 1);
    }
    close(fds[1]);
    CHECK(child_status(pid) == 0);
    CHECK(CP_EXIT_PIPE == 128 + SIGPIPE);
}

/* The process's own descriptors, as /dev/stdout and /dev/fd/N name them (reached here through
 * /proc/self/fd and a link of the test's own, never through /dev): written through, never
 * replaced; a file opened for appending keeps what it held. */
static void test_descriptor_paths(void)
{
    char log[128], link[128];
    at(log, sizeof log, "appended.log");
    put(log, "keep\n");
    CHECK(symlink("/proc/self/fd/1", at(link, sizeof link, "my-stdout")) == 0);
    struct stat before, after;
    CHECK(stat(log, &before) == 0);
    pid_t pid = fork();
    if (pid == 0) { /* standard output appends to the log, as `>> log` makes it */
        int fd = open(log, O_WRONLY | O_APPEND);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
            _exit(2);
        cp_status st;
        int ok = write_report(link, "report\n", &st) == CP_EXIT_OK;
        ok &= write_report("/proc/self/fd/1", "again\n", &st) == CP_EXIT_OK;
        _exit(ok ? 0 : 1);
    }
    CHECK(child_status(pid) == 0);
    CHECK(file_is(log, "keep\nreport\nagain\n"));
    CHECK(stat(log, &after) == 0 && after.st_ino == before.st_ino);
    CHECK(type_of(link) == S_IFLNK);

    /* another descriptor: a pipe, still open for the caller afterwards */
    int fds[2];
    CHECK(pipe(fds) == 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fds[1]);
    cp_status st;
    CHECK(write_report(path, "through fd\n", &st) == CP_EXIT_OK);
    CHECK(write(fds[1], "more\n", 5) == 5);
    close(fds[1]);
    FILE *r = fdopen(fds[0], "r");
    char *got = r ? cp_test_read_stream(r) : NULL;
    if (r)
        fclose(r);
    CHECK(got && strcmp(got, "through fd\nmore\n") == 0);
    free(got);
    /* a descriptor that is not open */
    check_refused("/proc/self/fd/977", "cannot write '/proc/self/fd/977': Bad file descriptor",
                  &st);
    /* standard output through its alias is standard output: a closed pipe is CP_EXIT_PIPE */
    CHECK(pipe(fds) == 0);
    close(fds[0]); /* no reader, before the child may write */
    pid = fork();
    if (pid == 0) {
        if (dup2(fds[1], STDOUT_FILENO) < 0)
            _exit(2);
        cp_status cst;
        _exit(write_report(link, "x\n", &cst) == CP_EXIT_PIPE ? 0 : 1);
    }
    close(fds[1]);
    CHECK(child_status(pid) == 0);
    CHECK(temps_in(g_dir) == 0);
}

/* Something other than a file put at the target while the report is written is kept. */
static void test_target_swapped(void)
{
    char p[128];
    cp_status st;
    cp_status_clear(&st);
    at(p, sizeof p, "swapped");
    cp_output out;
    CHECK(cp_output_open(&out, p, &st) == CP_EXIT_OK);
    CHECK(cp_output_begin(&out, &st) == CP_EXIT_OK);
    fputs("report\n", out.file);
    CHECK(mkfifo(p, 0600) == 0);
    CHECK(cp_output_close(&out, CP_EXIT_OK, &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "is no longer a regular file");
    CHECK(type_of(p) == S_IFIFO);
    CHECK(temps_in(g_dir) == 0);
}

/* A failed writer, or an abort: nothing left, the old file unchanged. Opening creates nothing:
 * the temporary file exists from cp_output_begin on, while the report is written. */
static void test_abort(void)
{
    char p[128], q[128];
    cp_status st;
    cp_status_clear(&st);
    put(at(p, sizeof p, "aborted.json"), "precious\n");
    cp_output out;
    CHECK(cp_output_open(&out, p, &st) == CP_EXIT_OK);
    CHECK(out.file == NULL && temps_in(g_dir) == 0); /* only checked so far */
    CHECK(cp_output_begin(&out, &st) == CP_EXIT_OK);
    /* the temporary file is unnamed (O_TMPFILE), or named where the file system has none */
    CHECK(out.file != NULL && temps_in(g_dir) == (out.temp_path != NULL));
    CHECK(cp_output_begin(&out, &st) == CP_EXIT_OK); /* twice is harmless */
    CHECK(temps_in(g_dir) == (out.temp_path != NULL));
    fputs("half a report", out.file);
    CHECK(cp_output_close(&out, CP_EXIT_USAGE, &st) == CP_EXIT_USAGE);
    CHECK(file_is(p, "precious\n"));
    CHECK(temps_in(g_dir) == 0);
    CHECK(cp_output_open(&out, p, &st) == CP_EXIT_OK);
    cp_output_abort(&out);
    cp_output_abort(&out); /* twice is harmless */
    CHECK(file_is(p, "precious\n"));
    CHECK(temps_in(g_dir) == 0);
    /* a new file that was only opened, then abandoned: nothing at all */
    CHECK(cp_output_open(&out, at(q, sizeof q, "never.json"), &st) == CP_EXIT_OK);
    cp_output_abort(&out);
    CHECK(type_of(q) == 0 && temps_in(g_dir) == 0);
    /* committed without a write: an empty file, as `> file` makes */
    CHECK(cp_output_open(&out, q, &st) == CP_EXIT_OK);
    CHECK(cp_output_close(&out, CP_EXIT_OK, &st) == CP_EXIT_OK);
    CHECK(file_is(q, ""));
    unlink(q);
}

/* A file this user may not write is refused when opened, as the shell's `>` refuses it: a 0444
 * file of one's own, and another user's read-only file in a directory everyone may write (it
 * keeps its owner and content). Checked as uid 65534 when running as root (root may write
 * anything, as the shell lets it). */
static void test_read_only_file(void)
{
    char d[128], theirs[128], mine[128];
    CHECK(mkdir(at(d, sizeof d, "shared"), 0755) == 0);
    CHECK(chmod(d, 0777) == 0); /* no sticky bit: a rename could replace theirs */
    put(at(theirs, sizeof theirs, "shared/theirs.json"), "theirs\n");
    CHECK(chmod(theirs, 0444) == 0);
    at(mine, sizeof mine, "shared/mine.json");
    struct stat before;
    CHECK(stat(theirs, &before) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
            _exit(77);
        FILE *f = fopen(mine, "w");
        if (!f || fputs("mine\n", f) < 0 || fclose(f) != 0 || chmod(mine, 0444) != 0)
            _exit(2);
        if (access(mine, W_OK) == 0)
            _exit(78); /* still writable: the test could not fail */
        int ok = 1;
        cp_status st;
        for (int k = 0; k < 2; k++) {
            const char *p = k ? theirs : mine;
            cp_status_clear(&st);
            cp_output out;
            int rc = cp_output_open(&out, p, &st);
            ok &= rc == CP_EXIT_RUNTIME && strstr(st.message, p) &&
                  strstr(st.message, "read-only for this user") && strstr(st.hint, "chmod u+w");
            if (rc == CP_EXIT_OK)
                cp_output_abort(&out);
        }
        ok &= write_report(mine, "new\n", &st) == CP_EXIT_RUNTIME;
        _exit(ok ? 0 : 1);
    }
    int status = child_status(pid);
    if (status == 77 || status == 78) {
        printf("SKIP read-only file: %s\n", status == 77
                                                ? "running as root and cannot become uid 65534"
                                                : "a 0444 file stays writable for this user");
    } else {
        CHECK(status == 0);
        CHECK(file_is(theirs, "theirs\n"));
        CHECK(file_is(mine, "mine\n"));
        struct stat after;
        CHECK(stat(theirs, &after) == 0 && after.st_uid == before.st_uid &&
              after.st_ino == before.st_ino && (after.st_mode & 07777) == 0444);
        CHECK(temps_in(d) == 0);
    }
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char p[512];
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            chmod(p, 0755);
            remove_tree(p);
        } else {
            unlink(p);
        }
    }
    closedir(d);
    rmdir(dir);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/coalprobe-test-output-XXXXXX");
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        return 1;
    }
    chmod(g_dir, 0755); /* the unprivileged child of the read-only test must reach it */
    setvbuf(stdout, NULL, _IOLBF, 0); /* nothing buffered for the children to inherit */
    alarm(120); /* a FIFO or socket that nobody opens fails the test rather than hanging it */
    cp_output_catch_signals();
    test_new_file_modes();
    test_replaced_file_keeps_mode();
    test_symlinks();
    test_fifo();
    test_socket();
    test_refused_and_missing();
    test_device_nodes();
    test_read_only_directory();
    test_write_error_keeps_old_file();
    test_stdout_closed();
    test_descriptor_paths();
    test_target_swapped();
    test_abort();
    test_read_only_file();
    remove_tree(g_dir);
    return cp_test_finish();
}
