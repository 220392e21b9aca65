// libavif and libjxl, loaded on first use. A book of JPEG pages never needs
// them, and linking them costs every process about 6 ms of start-up in the
// dynamic linker (docs/performance.md): libavif alone brings its AV1 codecs'
// 28 libraries. The shims call them through tables filled by dlopen/dlsym;
// the macros below keep their call sites written as plain library calls.
// Each library is loaded by the exact soname its headers describe, so the
// tables always match the ABI the shims were compiled against.
#ifndef MH_LAZY_CODECS_H
#define MH_LAZY_CODECS_H

#include "shim.h"

#include <avif/avif.h>
#include <jxl/decode.h>
#include <jxl/version.h>

#if AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11
#define MH_AVIF_SONAME "libavif.so.15"
#else
#error "name this libavif's soname here (0.11 is libavif.so.15)"
#endif
#define MH_STRINGIFY_(x) #x
#define MH_STRINGIFY(x) MH_STRINGIFY_(x)
#define MH_JXL_SONAME "libjxl.so." MH_STRINGIFY(JPEGXL_MAJOR_VERSION) "." MH_STRINGIFY(JPEGXL_MINOR_VERSION)

#define MH_AVIF_FUNCTIONS(X) \
    X(avifCodecName) \
    X(avifDecoderCreate) \
    X(avifDecoderDestroy) \
    X(avifDecoderNextImage) \
    X(avifDecoderParse) \
    X(avifDecoderSetIOMemory) \
    X(avifEncoderCreate) \
    X(avifEncoderDestroy) \
    X(avifEncoderWrite) \
    X(avifImageAllocatePlanes) \
    X(avifImageCreate) \
    X(avifImageDestroy) \
    X(avifImageRGBToYUV) \
    X(avifImageYUVToRGB) \
    X(avifRGBImageSetDefaults) \
    X(avifRWDataFree) \
    X(avifResultToString)

#define MH_JXL_FUNCTIONS(X) \
    X(JxlDecoderCloseInput) \
    X(JxlDecoderCreate) \
    X(JxlDecoderDestroy) \
    X(JxlDecoderGetBasicInfo) \
    X(JxlDecoderGetColorAsEncodedProfile) \
    X(JxlDecoderGetColorAsICCProfile) \
    X(JxlDecoderGetICCProfileSize) \
    X(JxlDecoderImageOutBufferSize) \
    X(JxlDecoderProcessInput) \
    X(JxlDecoderSetImageOutBuffer) \
    X(JxlDecoderSetInput) \
    X(JxlDecoderSubscribeEvents)

#define MH_LAZY_FIELD(name) __typeof__(name) *name;
typedef struct { MH_AVIF_FUNCTIONS(MH_LAZY_FIELD) } mh_avif_table;
typedef struct { MH_JXL_FUNCTIONS(MH_LAZY_FIELD) } mh_jxl_table;
extern mh_avif_table mh_avif_functions;
extern mh_jxl_table mh_jxl_functions;

// Load the library once (thread-safe); 1 when its table is ready, else 0
// with MH_ERR_UNSUPPORTED naming the library that could not be loaded.
int mh_avif_load(mh_error *error);
int mh_jxl_load(mh_error *error);
// Why libavif could not be loaded (it is loaded now if it was not), or NULL.
const char *mh_avif_load_problem(void);

#ifndef MH_LAZY_CODECS_IMPLEMENTATION
#define avifCodecName (mh_avif_functions.avifCodecName)
#define avifDecoderCreate (mh_avif_functions.avifDecoderCreate)
#define avifDecoderDestroy (mh_avif_functions.avifDecoderDestroy)
#define avifDecoderNextImage (mh_avif_functions.avifDecoderNextImage)
#define avifDecoderParse (mh_avif_functions.avifDecoderParse)
#define avifDecoderSetIOMemory (mh_avif_functions.avifDecoderSetIOMemory)
#define avifEncoderCreate (mh_avif_functions.avifEncoderCreate)
#define avifEncoderDestroy (mh_avif_functions.avifEncoderDestroy)
#define avifEncoderWrite (mh_avif_functions.avifEncoderWrite)
#define avifImageAllocatePlanes (mh_avif_functions.avifImageAllocatePlanes)
#define avifImageCreate (mh_avif_functions.avifImageCreate)
#define avifImageDestroy (mh_avif_functions.avifImageDestroy)
#define avifImageRGBToYUV (mh_avif_functions.avifImageRGBToYUV)
#define avifImageYUVToRGB (mh_avif_functions.avifImageYUVToRGB)
#define avifRGBImageSetDefaults (mh_avif_functions.avifRGBImageSetDefaults)
#define avifRWDataFree (mh_avif_functions.avifRWDataFree)
#define avifResultToString (mh_avif_functions.avifResultToString)
#define JxlDecoderCloseInput (mh_jxl_functions.JxlDecoderCloseInput)
#define JxlDecoderCreate (mh_jxl_functions.JxlDecoderCreate)
#define JxlDecoderDestroy (mh_jxl_functions.JxlDecoderDestroy)
#define JxlDecoderGetBasicInfo (mh_jxl_functions.JxlDecoderGetBasicInfo)
#define JxlDecoderGetColorAsEncodedProfile (mh_jxl_functions.JxlDecoderGetColorAsEncodedProfile)
#define JxlDecoderGetColorAsICCProfile (mh_jxl_functions.JxlDecoderGetColorAsICCProfile)
#define JxlDecoderGetICCProfileSize (mh_jxl_functions.JxlDecoderGetICCProfileSize)
#define JxlDecoderImageOutBufferSize (mh_jxl_functions.JxlDecoderImageOutBufferSize)
#define JxlDecoderProcessInput (mh_jxl_functions.JxlDecoderProcessInput)
#define JxlDecoderSetImageOutBuffer (mh_jxl_functions.JxlDecoderSetImageOutBuffer)
#define JxlDecoderSetInput (mh_jxl_functions.JxlDecoderSetInput)
#define JxlDecoderSubscribeEvents (mh_jxl_functions.JxlDecoderSubscribeEvents)
#endif

#endif
