/* cp_output.h: every file coalprobe writes (reports of every subcommand, compare's output, trace
 * reports): standard output, a regular file replaced atomically, or a special file written in
 * place. Nothing that is not a regular file is ever replaced, and a failed write leaves nothing
 * behind.
 *
 * The rules, by what the path names when it is opened:
 *   NULL or "-"          standard output (fd 1); /dev/stdout and /proc/self/fd/1 too
 *   /dev/fd/N,           one of the process's open descriptors (/dev/stderr is fd 2): written
 *   /proc/self/fd/N      through it, wherever its offset stands (O_APPEND kept), never replaced
 *   nothing yet          a new file: written to an unnamed temporary file (O_TMPFILE; a
 *                        named one where the file system has none) in the same directory,
 *                        flushed to disk (fsync), renamed into place, the directory fsynced;
 *                        created with mode 0666 less the umask (and the directory's default
 *                        ACL), as the shell's `>` creates files
 *   a regular file       replaced the same way; the new file keeps the old one's permission
 *                        bits (07777) and, where the process may, its owner and group. Other
 *                        hard links to the old file keep the old content. A file this user
 *                        may not write (a 0444 file, another user's read-only file) is
 *                        refused when opened, as the shell's `>` refuses it
 *   a symbolic link      followed (a chain of links too, a dangling link included): the file at
 *                        its end is created or replaced by the rules above, in its own
 *                        directory; the link stays
 *   a character device,  opened and written in place (no temporary file, no rename, no
 *   a FIFO               truncation): /dev/null, a terminal, a pipe someone reads. Opening a
 *                        FIFO waits for its reader, as the shell's `>` does
 *   a socket             connected to (a Unix stream socket) and written
 *   a directory          refused (CP_EXIT_RUNTIME) when opened, so before any work
 *   a block device       refused: a report never overwrites a disk
 * A write that fails (ENOSPC, EIO, EFBIG, EPIPE, ...) is CP_EXIT_RUNTIME with the path and the
 * reason, and the temporary file is removed; standard output closed by its reader (EPIPE, e.g.
 * `coalprobe ... | head -1`) is CP_EXIT_PIPE with no message to print.
 *
 * Opening only checks the destination (it exists or may be created, this user may write it);
 * nothing is created, and no special file opened, until cp_output_begin, called when the
 * report is about to be written: a run stopped before then (a signal, an error, a kill) leaves
 * no temporary file and the old file untouched.
 *
 * Use:
 *     cp_output out;
 *     CP_TRY(cp_output_open(&out, path, st));       // before the work: a bad path fails now
 *     ... the work ...                               // cp_output_abort(&out) if it fails
 *     int rc = cp_output_begin(&out, st);            // now the temporary file exists
 *     if (rc == CP_EXIT_OK)
 *         rc = write_the_report(out.file, st);       // any writer: a FILE *
 *     rc = cp_output_close(&out, rc, st);            // commits if rc is CP_EXIT_OK
 * Not thread-safe: one thread opens, writes and closes a cp_output. */
#ifndef CP_OUTPUT_H
#define CP_OUTPUT_H

#include <stdio.h>

#include "cp_status.h"

struct cp_output_sink; /* private: the descriptor and the first write error */

typedef struct cp_output {
    FILE *file;                  /* where to write; NULL before cp_output_begin */
    char *path;                  /* the path as given, NULL for standard output */
    char *target;                /* the file written or replaced (a link's target), or NULL */
    char *temp_path;             /* named temporary file beside target, or NULL */
    int direct;                  /* 1: a special file or standard output, written in place */
    struct cp_output_sink *sink; /* private */
} cp_output;

/* Refuses (CP_EXIT_USAGE, with a hint) a file name that is an option eaten as one: one that
 * begins with "--" or is a short option ("-v"), as in `--csv --model` (getopt takes "--model" as
 * the file of --csv). option is the option as written ("-o", "--csv"); format, when not NULL,
 * is the --format value that makes that format the main report. A file of such a name is
 * still reached as ./--model. */
int cp_output_check_name(const char *option, const char *path, const char *format, cp_status *st);

/* 1 when path (an existing file, a link followed) is the file standard output writes to (the
 * same device and inode as fstat(1)), /dev/null aside: `--json /dev/stdout`, `/dev/fd/1`,
 * `/proc/self/fd/1` beside a report on standard output, or `--json r.json > r.json`. */
int cp_output_is_stdout(const char *path);

/* 1 when standard output is the regular file input (cp_output_is_stdout), so that a report
 * written there would write over it: `show b.json 1<>b.json`. (-o naming an input is
 * cp_path_same_file's.) */
int cp_output_stdout_is_input(const char *input);

/* The refusal when it is: CP_EXIT_USAGE, "standard output is the file 'input' WHAT: writing
 * there would overwrite it", with a hint; `what` names the input's role ("being shown"). */
int cp_output_refuse_stdout_input(const char *input, const char *what, cp_status *st);

/* Refuses (CP_EXIT_USAGE, hint: -o FILE) an HTML page whose output (NULL or "-": standard
 * output; /dev/stdout, /dev/tty) is a terminal: 60 KB of markup there helps no one. */
int cp_output_check_page(const char *output, cp_status *st);

/* Flushes standard output and reports a write that failed on it at any point (help, --list,
 * doctor's text written with stdio): CP_EXIT_RUNTIME "cannot write to standard output:
 * reason", CP_EXIT_PIPE when its reader went away (nothing to say), CP_EXIT_OK otherwise. */
int cp_output_stdout_failed(cp_status *st);

/* Removes the temporary files being written now, when a name was given to them (async-signal-
 * safe: a signal handler that ends the process calls it). A temporary file is created unnamed
 * (O_TMPFILE) where the file system allows, so that even SIGKILL leaves nothing behind; it gets
 * its name only to be renamed into place, and where the file system refuses O_TMPFILE it has
 * its name from the start. */
void cp_output_remove_temps(void);

/* The descriptor of the temporary file a begun output writes to, everything written flushed to
 * it (opened for reading and writing), or -1 for a special file or standard output. */
int cp_output_temp_fd(cp_output *out);

/* Makes SIGPIPE and SIGXFSZ no-op handlers for the process, where they have their default
 * action, so that writing to a pipe whose reader has gone (EPIPE) or past the file size limit
 * (EFBIG) is an error cp_output reports (and cleans up after) rather than the death of the
 * process. Handlers, unlike SIG_IGN, are reset to the default in programs the process execs.
 * main calls it once at start; call it in tests that exercise those errors. */
void cp_output_catch_signals(void);

/* Also: SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2 and SIGALRM, where they have their
 * default action (a `nohup` keeps SIGHUP ignored), get a handler that removes the temporary
 * files (cp_output_remove_temps) and ends the process by the same signal (128 + n in the
 * shell); a command that stops cleanly on some of them (a sweep on SIGINT, SIGTERM, SIGHUP)
 * installs its own handler over this one while it runs. */

/* Opens the destination by the rules above: standard output and a descriptor of the process
 * are ready at once (out->file); a file is only checked. On failure (CP_EXIT_RUNTIME, message
 * "cannot write 'PATH': reason" with a hint) nothing was created. */
int cp_output_open(cp_output *out, const char *path, cp_status *st);

/* Makes out->file ready: creates the temporary file beside the target, or opens the special
 * file (a FIFO waits for its reader here); nothing to do for standard output or when begun
 * already. On failure (CP_EXIT_RUNTIME, as cp_output_open) out is closed and nothing is left. */
int cp_output_begin(cp_output *out, cp_status *st);

/* Ends the output after the writer returned rc: commits when rc is CP_EXIT_OK, discards
 * otherwise. A write to the destination that failed at any point takes precedence over rc
 * (the writer's own message lacks the path): CP_EXIT_RUNTIME "cannot write 'PATH': reason", or
 * CP_EXIT_PIPE for standard output closed by its reader. Returns the exit code; out is closed
 * either way. */
int cp_output_close(cp_output *out, int rc, cp_status *st);

/* Flushes everything written (begins first when nothing was: an empty output); for a new or
 * replaced file, fsyncs it, renames it onto the target
 * and fsyncs the directory. On failure the temporary file is removed and the target is left as
 * it was. */
int cp_output_commit(cp_output *out, cp_status *st);

/* Returns CP_EXIT_OK when no write to the destination has failed yet; otherwise records the
 * failure in st as cp_output_close does and returns its code. */
int cp_output_failed(const cp_output *out, cp_status *st);

/* Closes and removes the temporary file (nothing is left behind); safe after commit, after a
 * failed open and twice. */
void cp_output_abort(cp_output *out);

#endif
