#ifndef CMIHIRAKI_PROCESS_H
#define CMIHIRAKI_PROCESS_H

/// Process-wide settings the `mihiraki` program makes for itself and a
/// library must never impose on the program that embeds it.

/// Keeps freed page-sized buffers for reuse instead of returning them to the
/// system after every spread. By default glibc maps each one fresh and
/// unmaps it on free, so every spread pays page faults and zeroing for tens
/// of megabytes. Does nothing outside glibc.
void mh_keep_large_buffers(void);

/// Drops the diagnostics decoding libraries print on stderr by themselves
/// (libjxl's `./lib/jxl/…: JXL_FAILURE: …` lines, printed before it returns
/// an error Mihiraki then reports in one line of its own). Standard error is
/// routed through a pipe; a thread forwards every other byte as it arrives,
/// so progress lines and Mihiraki's own messages are unchanged. At exit the
/// pipe is drained. Safe to call more than once; the first call counts.
void mh_quiet_library_chatter(void);

/// Whether standard error, as the user sees it (not the filter's pipe), is a terminal.
int mh_stderr_is_terminal(void);

/// Asks the kernel (Linux) to kill this process when the thread that started
/// it ends, for a child that must not outlive the process watching it.
/// Returns 1 while `parent` is still this process's parent, 0 when it died
/// before the request was made (the child should end at once).
int mh_end_with_parent(int parent);

#include <stddef.h>

/// The Landlock ABI version this kernel offers, or 0 without Landlock.
int mh_landlock_abi(void);

enum {
    /// Landlock confines the files the process may open.
    MH_CONFINED_FILES = 1,
    /// Landlock forbids TCP bind and connect (Landlock ABI 4 and later).
    MH_CONFINED_TCP = 2,
    /// seccomp refuses socket() for every family but AF_UNIX.
    MH_CONFINED_SOCKETS = 4,
};

/// Confines this process for good: every descriptor from 3 up closed,
/// `memory_bytes` of address space at most
/// (0: no limit), no core files, no new privileges; with Landlock, reading
/// below the `count` paths of `readable` only (files and folders; a path that
/// does not exist is skipped) and writing nothing but files below `scratch`
/// (a folder of the process's own, or NULL: nowhere); no socket but a local
/// one. Returns the MH_CONFINED_* bits applied (what the kernel offers), or
/// -1 with the reason in `why`.
int mh_confine(const char *const *readable, int count, const char *scratch, long long memory_bytes,
               char *why, size_t why_size);

/// In a process with an address-space limit: a crash (SIGTRAP, SIGILL,
/// SIGABRT, SIGSEGV, SIGBUS) while errno is ENOMEM, which is how Swift ends
/// when an allocation is refused, exits with `status` instead; any other
/// crash is left to the signal. Returns 0, or -1 when it cannot be set up.
int mh_exit_on_memory_crash(int status);

#endif
