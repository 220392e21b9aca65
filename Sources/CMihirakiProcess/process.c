#include "CMihirakiProcess.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void mh_keep_large_buffers(void) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}
