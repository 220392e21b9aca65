// libavif, libjxl and libarchive, loaded on first use. A book of JPEG pages
// in a folder never needs them, and linking them costs every process start-up
// time in the dynamic linker (docs/performance.md): libavif alone brings its
// AV1 codecs' 28 libraries, libarchive 0.7-1.4 ms of its own. The shims call
// them through tables filled by dlopen/dlsym; the macros below keep their
// call sites written as plain library calls. Each library is loaded by the
// exact soname its headers describe, so the tables always match the ABI the
// shims were compiled against.
#ifndef MH_LAZY_CODECS_H
#define MH_LAZY_CODECS_H

#include "shim.h"

#include <archive.h>
#include <archive_entry.h>
#include <avif/avif.h>
#include <jxl/decode.h>
#include <jxl/version.h>

#if AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11
#define MH_AVIF_SONAME "libavif.so.15"
#else
#error "name this libavif's soname here (0.11 is libavif.so.15)"
#endif
#if ARCHIVE_VERSION_NUMBER >= 3000000 && ARCHIVE_VERSION_NUMBER < 4000000
#define MH_ARCHIVE_SONAME "libarchive.so.13"
#else
#error "name this libarchive's soname here (every 3.x is libarchive.so.13)"
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

#define MH_ARCHIVE_FUNCTIONS(X) \
    X(archive_entry_filetype) \
    X(archive_entry_hardlink) \
    X(archive_entry_hardlink_utf8) \
    X(archive_entry_is_encrypted) \
    X(archive_entry_pathname) \
    X(archive_entry_pathname_utf8) \
    X(archive_entry_size) \
    X(archive_entry_size_is_set) \
    X(archive_entry_symlink) \
    X(archive_entry_symlink_utf8) \
    X(archive_error_string) \
    X(archive_format_name) \
    X(archive_read_data) \
    X(archive_read_free) \
    X(archive_read_new) \
    X(archive_read_next_header) \
    X(archive_read_open_filename) \
    X(archive_read_support_filter_all) \
    X(archive_read_support_format_all)

#define MH_LAZY_FIELD(name) __typeof__(name) *name;
typedef struct { MH_AVIF_FUNCTIONS(MH_LAZY_FIELD) } mh_avif_table;
typedef struct { MH_JXL_FUNCTIONS(MH_LAZY_FIELD) } mh_jxl_table;
typedef struct { MH_ARCHIVE_FUNCTIONS(MH_LAZY_FIELD) } mh_archive_table;
extern mh_avif_table mh_avif_functions;
extern mh_jxl_table mh_jxl_functions;
extern mh_archive_table mh_archive_functions;

// Load the library once (thread-safe); 1 when its table is ready, else 0
// with MH_ERR_UNSUPPORTED naming the library that could not be loaded.
int mh_avif_load(mh_error *error);
int mh_jxl_load(mh_error *error);
int mh_archive_load(mh_error *error);
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
#define archive_entry_filetype (mh_archive_functions.archive_entry_filetype)
#define archive_entry_hardlink (mh_archive_functions.archive_entry_hardlink)
#define archive_entry_hardlink_utf8 (mh_archive_functions.archive_entry_hardlink_utf8)
#define archive_entry_is_encrypted (mh_archive_functions.archive_entry_is_encrypted)
#define archive_entry_pathname (mh_archive_functions.archive_entry_pathname)
#define archive_entry_pathname_utf8 (mh_archive_functions.archive_entry_pathname_utf8)
#define archive_entry_size (mh_archive_functions.archive_entry_size)
#define archive_entry_size_is_set (mh_archive_functions.archive_entry_size_is_set)
#define archive_entry_symlink (mh_archive_functions.archive_entry_symlink)
#define archive_entry_symlink_utf8 (mh_archive_functions.archive_entry_symlink_utf8)
#define archive_error_string (mh_archive_functions.archive_error_string)
#define archive_format_name (mh_archive_functions.archive_format_name)
#define archive_read_data (mh_archive_functions.archive_read_data)
#define archive_read_free (mh_archive_functions.archive_read_free)
#define archive_read_new (mh_archive_functions.archive_read_new)
#define archive_read_next_header (mh_archive_functions.archive_read_next_header)
#define archive_read_open_filename (mh_archive_functions.archive_read_open_filename)
#define archive_read_support_filter_all (mh_archive_functions.archive_read_support_filter_all)
#define archive_read_support_format_all (mh_archive_functions.archive_read_support_format_all)
#endif

#endif
