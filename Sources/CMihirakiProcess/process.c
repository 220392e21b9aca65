#include "CMihirakiProcess.h"

// Any C library header first: glibc defines __GLIBC__ in them, and the test
// below would otherwise see it undefined and compile the settings away.
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void mh_keep_large_buffers(void) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

#if defined(__linux__)
#include <signal.h>
#include <sys/prctl.h>
#endif
#include <unistd.h>

int mh_end_with_parent(int parent) {
#if defined(__linux__)
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    // The parent may have died before the request was made: then no signal comes.
    return getppid() == parent;
}
