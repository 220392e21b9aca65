// Confinement of a rendering worker process (mihiraki serve --workers):
// Landlock limits the files it may open to reading a few folders, and,
// where the kernel's Landlock has network rules, forbids TCP; a seccomp
// filter refuses every socket but a local one; rlimits bound its memory.
// The structures and constants are Linux's (linux/landlock.h, ABI 1-5),
// spelled here so the build does not depend on the headers' age.
#define _GNU_SOURCE
#include "CMihirakiProcess.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

struct mh_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
};

struct mh_path_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

enum {
    MH_FS_EXECUTE = 1ULL << 0, MH_FS_WRITE_FILE = 1ULL << 1, MH_FS_READ_FILE = 1ULL << 2,
    MH_FS_READ_DIR = 1ULL << 3, MH_FS_REMOVE_FILE = 1ULL << 5, MH_FS_MAKE_REG = 1ULL << 8,
    MH_FS_ABI1 = (1ULL << 13) - 1, MH_FS_REFER = 1ULL << 13,
    MH_FS_TRUNCATE = 1ULL << 14, MH_FS_IOCTL_DEV = 1ULL << 15,
    MH_NET_BIND_TCP = 1ULL << 0, MH_NET_CONNECT_TCP = 1ULL << 1,
};

int mh_landlock_abi(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, 1U /* LANDLOCK_CREATE_RULESET_VERSION */);
    return abi < 0 ? 0 : (int)abi;
}

static void say(char *why, size_t size, const char *what) {
    if (why && size) snprintf(why, size, "%s: %s", what, strerror(errno));
}

/// Refuses socket() for every family but AF_UNIX with EACCES (x86-64 and
/// aarch64 system call numbers; another architecture is left unfiltered).
static int refuse_sockets(void) {
#if defined(__x86_64__)
    const uint32_t arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    const uint32_t arch = AUDIT_ARCH_AARCH64;
#else
    return 0;
#endif
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = { .len = sizeof filter / sizeof filter[0], .filter = filter };
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0 ? 1 : -1;
}

/// Allows `rights` beneath `path` in `ruleset`; a path that does not exist
/// is skipped. Returns 0, or -1 with errno set.
static int allow(int ruleset, const char *path, uint64_t rights) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0;  // a folder this system does not have
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISDIR(info.st_mode)) rights &= MH_FS_READ_FILE | MH_FS_WRITE_FILE;
    struct mh_path_beneath rule = { .allowed_access = rights, .parent_fd = fd };
    long added = syscall(__NR_landlock_add_rule, ruleset, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &rule, 0);
    int saved = errno;
    close(fd);
    errno = saved;
    return added == 0 ? 0 : -1;
}

int mh_confine(const char *const *readable, int count, const char *scratch, long long memory_bytes,
               char *why, size_t why_size) {
    int applied = 0;
    // Nothing of the server's but the pipes on 0 and 1 stays open here: an
    // inherited listening socket would keep accepting connections after the
    // server closed its own, and a connection would outlive its answer.
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3, ~0U, 0) != 0)
#endif
    {
        long top = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < (top > 0 && top < 65536 ? top : 65536); fd++) close((int)fd);
    }
    // AddressSanitizer (scripts/test-hardened) reserves terabytes of address
    // space for its shadow memory: an address-space limit would fail every
    // allocation, so a sanitized build runs its workers without one.
    if (dlsym(RTLD_DEFAULT, "__asan_init") != NULL) memory_bytes = 0;
    if (memory_bytes > 0) {
        struct rlimit limit = { (rlim_t)memory_bytes, (rlim_t)memory_bytes };
        if (setrlimit(RLIMIT_AS, &limit) != 0) { say(why, why_size, "setrlimit"); return -1; }
    }
    // No core files from a worker that dies: its pages are the user's.
    struct rlimit none = { 0, 0 };
    setrlimit(RLIMIT_CORE, &none);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) { say(why, why_size, "no_new_privs"); return -1; }

    int abi = mh_landlock_abi();
    if (abi >= 1) {
        struct mh_ruleset_attr attr = { .handled_access_fs = MH_FS_ABI1, .handled_access_net = 0 };
        if (abi >= 2) attr.handled_access_fs |= MH_FS_REFER;
        if (abi >= 3) attr.handled_access_fs |= MH_FS_TRUNCATE;
        if (abi >= 5) attr.handled_access_fs |= MH_FS_IOCTL_DEV;
        if (abi >= 4) attr.handled_access_net = MH_NET_BIND_TCP | MH_NET_CONNECT_TCP;
        size_t size = abi >= 4 ? sizeof attr : sizeof attr.handled_access_fs;
        int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0);
        if (ruleset < 0) { say(why, why_size, "landlock_create_ruleset"); return -1; }
        int failed = 0;
        for (int i = 0; i < count && !failed; i++) failed = allow(ruleset, readable[i], MH_FS_READ_FILE | MH_FS_READ_DIR);
        // The scratch folder: unnamed files (O_TMPFILE) made, written, read
        // and, where the file system needs named ones, removed again.
        uint64_t scratch_rights = MH_FS_READ_FILE | MH_FS_READ_DIR | MH_FS_WRITE_FILE | MH_FS_MAKE_REG | MH_FS_REMOVE_FILE;
        if (abi >= 3) scratch_rights |= MH_FS_TRUNCATE;
        if (!failed && scratch) failed = allow(ruleset, scratch, scratch_rights);
        if (failed) { say(why, why_size, "landlock_add_rule"); close(ruleset); return -1; }
        if (syscall(__NR_landlock_restrict_self, ruleset, 0) != 0) {
            say(why, why_size, "landlock_restrict_self");
            close(ruleset);
            return -1;
        }
        close(ruleset);
        applied |= MH_CONFINED_FILES;
        if (abi >= 4) applied |= MH_CONFINED_TCP;
    }
    int filtered = refuse_sockets();
    if (filtered < 0) { say(why, why_size, "seccomp"); return -1; }
    if (filtered > 0) applied |= MH_CONFINED_SOCKETS;
    return applied;
}

// A worker under an address-space limit that cannot get memory: the
// decoders return an error, but Swift traps when an allocation fails. The
// handler runs on the trapping thread (the signals below are synchronous),
// so errno still says why: ENOMEM ends the worker with `memory_status`,
// which the server reads as "needs more memory than the limit"; any other
// crash goes on to the signal's default action (the handler is reset first).
static volatile sig_atomic_t memory_exit_status = 0;

static void memory_crash(int signal) {
    if (errno == ENOMEM) _exit(memory_exit_status);
    (void)signal;  // SA_RESETHAND: returning re-runs the trap, or abort() raises again, with the default action
}

int mh_exit_on_memory_crash(int status) {
    static char stack[1 << 16];
    stack_t alternate = { .ss_sp = stack, .ss_size = sizeof stack, .ss_flags = 0 };
    if (sigaltstack(&alternate, NULL) != 0) return -1;
    memory_exit_status = status;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = memory_crash;
    action.sa_flags = SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    const int signals[] = { SIGTRAP, SIGILL, SIGABRT, SIGSEGV, SIGBUS };
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}
