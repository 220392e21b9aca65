// The C ABI's header (include/mihiraki.h, linked into this module's include
// folder) as a Clang module, so the Swift side of the ABI (MihirakiC) takes
// its numbers, the ABI version and the error kinds, from the header itself
// rather than restating them. Nothing is compiled here.
#include "mihiraki.h"
