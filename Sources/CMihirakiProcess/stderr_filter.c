// Standard error through a filter that drops the decoding libraries' own
// diagnostic lines (see mh_quiet_library_chatter in CMihirakiProcess.h).
#define _GNU_SOURCE
#include "CMihirakiProcess.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// Lines that start with one of these are a library talking to itself:
// libjxl's failure trace (each line followed by an empty one), and dav1d's
// log (libavif's AV1 decoder), which prints to stderr by default and which
// libavif gives no way to turn off. dav1d's are every message it can log.
static const char *const chatter[] = {
    "./lib/jxl/",
    "Input validation check '", "Compiled without support for ", "Error parsing sequence header",
    "Overrun in OBU bit buffer", "Frame size ", "Malformed ITU-T T.35 metadata", "Unknown OBU type ",
    "Error parsing frame header", "Unknown Metadata OBU type", "Error parsing OBU data",
    "Picture already allocated!", "Failed to wrap picture: ",
};
enum { CHATTER_COUNT = sizeof chatter / sizeof chatter[0], LONGEST = 32 };

static int real_stderr = -1;
static int pipe_read = -1;
static pthread_t reader;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void write_all(const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = write(real_stderr, bytes, count);
        if (n <= 0) return;
        bytes += n;
        count -= (size_t)n;
    }
}

// 1 when `line` (len bytes, the start of a line) is a chatter prefix or starts
// with one, 0 when it can no longer become one, -1 while it still might.
static int classify(const char *line, size_t len) {
    int possible = 0;
    for (int i = 0; i < CHATTER_COUNT; i++) {
        size_t n = strlen(chatter[i]);
        size_t k = len < n ? len : n;
        if (memcmp(line, chatter[i], k) == 0) {
            if (len >= n) return 1;
            possible = 1;
        }
    }
    return possible ? -1 : 0;
}

static void *forward(void *unused) {
    (void)unused;
    enum { DECIDING, PASSING, DROPPING } state = DECIDING;
    int after_chatter = 0;  // the empty lines right after a dropped line are dropped too
    char head[LONGEST];
    size_t head_len = 0;
    char chunk[8192], out[8192 + LONGEST];
    ssize_t n;
    while ((n = read(pipe_read, chunk, sizeof chunk)) > 0) {
        size_t out_len = 0;
        for (ssize_t i = 0; i < n; i++) {
            char c = chunk[i];
            if (state == DECIDING) {
                if (head_len == 0 && c == '\n' && after_chatter) continue;
                after_chatter = 0;
                head[head_len++] = c;
                int verdict = classify(head, head_len);
                if (verdict == 1) {
                    state = DROPPING;
                    after_chatter = 1;
                } else if (verdict == 0 || c == '\n' || head_len == LONGEST) {
                    memcpy(out + out_len, head, head_len);
                    out_len += head_len;
                    state = PASSING;
                }
                if (state != DECIDING) head_len = 0;
                if (c == '\n') state = DECIDING;
            } else {
                if (state == PASSING) out[out_len++] = c;
                if (c == '\n') state = DECIDING;
            }
            if (out_len >= sizeof chunk) {
                write_all(out, out_len);
                out_len = 0;
            }
        }
        write_all(out, out_len);
    }
    if (state == DECIDING && head_len > 0) write_all(head, head_len);
    return NULL;
}

// At exit: standard error goes straight out again, which closes the pipe's
// last writer in this process; the reader forwards what is left and ends
// (bounded: a child process may still hold the pipe).
static void finish(void) {
    fflush(stderr);
    dup2(real_stderr, STDERR_FILENO);
    struct timespec limit;
    clock_gettime(CLOCK_REALTIME, &limit);
    limit.tv_sec += 2;
    pthread_timedjoin_np(reader, NULL, &limit);
}

static void install(void) {
    int fds[2];
    real_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (real_stderr < 0 || pipe2(fds, O_CLOEXEC) != 0) return;
    pipe_read = fds[0];
    // The reader takes no signals: a signal the process waits for with
    // signalfd (libdispatch's SIGCHLD for Foundation's Process, SIGTERM for
    // `serve`) must stay blocked in every thread, or it may land here and be
    // lost. It inherits a full mask, then this thread's mask is restored.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    int started = dup2(fds[1], STDERR_FILENO) >= 0 && pthread_create(&reader, NULL, forward, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (!started) {
        dup2(real_stderr, STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        return;
    }
    close(fds[1]);
    atexit(finish);
}

void mh_quiet_library_chatter(void) { pthread_once(&once, install); }

int mh_stderr_is_terminal(void) { return isatty(real_stderr >= 0 ? real_stderr : STDERR_FILENO); }
