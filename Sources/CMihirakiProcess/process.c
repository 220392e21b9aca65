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
