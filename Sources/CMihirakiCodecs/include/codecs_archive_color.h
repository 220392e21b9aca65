// Mihiraki's codec shim: Archives read in sequence, colour transforms and checksums. Part of CMihirakiCodecs.h.
#ifndef CMIHIRAKI_CODECS_ARCHIVE_COLOR_H
#define CMIHIRAKI_CODECS_ARCHIVE_COLOR_H

#include "CMihirakiCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Archives read in sequence (libarchive)

typedef struct mh_archive mh_archive;

typedef struct mh_archive_entry {
    const char *name;    ///< valid until the next call on the archive
    int64_t size;        ///< -1 when the header does not say
    int is_file;
    /// 1 for a hard link (`link` names an entry before it, from the archive's
    /// top), 2 for a symbolic link (`link` is relative to the entry's folder),
    /// else 0; a link is never a file.
    int link_kind;
    const char *link;    ///< valid until the next call on the archive; "" when not a link
    int encrypted;
    const char *format;  ///< what libarchive recognised, such as "7-Zip" or "RAR5"
} mh_archive_entry;

/// Opens an archive file; its kind comes from its bytes.
mh_archive *mh_archive_open(const char *path, mh_error *error);
/// Moves to the next entry: 1, or 0 at the end, or -1 with `error` filled.
int mh_archive_next(mh_archive *archive, mh_archive_entry *entry, mh_error *error);
/// Reads the current entry's data: bytes read, 0 at its end, -1 on error.
long mh_archive_read(mh_archive *archive, void *buffer, size_t size, mh_error *error);
void mh_archive_close(mh_archive *archive);

// MARK: Colour (lcms2)

typedef struct mh_color_transform mh_color_transform;

/// A transform from an embedded ICC profile to sRGB (RGB profiles, 3 or 4
/// channels; alpha copied) or to gray with the sRGB curve (gray profiles, 1 or
/// 2 channels), relative colorimetric, usable from several threads at once.
/// Returns NULL with MH_OK in `error` when no transform is needed (a profile
/// that describes itself as sRGB), with MH_ERR_UNSUPPORTED when the profile
/// does not fit the pixels, MH_ERR_CORRUPT when it cannot be read.
mh_color_transform *mh_color_transform_new(const void *icc, size_t size, int channels, mh_error *error);
/// Converts `count` pixels in place.
void mh_color_transform_apply(mh_color_transform *transform, void *pixels, size_t count);
/// A transform from a CMYK profile's 4 samples (`inverted`: Adobe's inverted
/// CMYK) to sRGB's 3, relative colorimetric; NULL with the reason in `error`
/// when the profile is not CMYK or cannot be used.
mh_color_transform *mh_color_transform_new_cmyk(const void *icc, size_t size, int inverted, mh_error *error);
/// Converts `count` pixels from `source` into `target` (CMYK into RGB).
void mh_color_transform_convert(mh_color_transform *transform, const void *source, void *target, size_t count);

// MARK: Checksums

/// CRC-32 (ISO-HDLC, as ZIP and PNG use) of `size` bytes, continuing `crc`
/// (0 to start).
uint32_t mh_crc32(uint32_t crc, const void *data, size_t size);

/// Inflates a raw deflate stream (a ZIP entry's data) into `dst`, at most
/// `dst_size` bytes; `*produced` gets how many. 0 when the stream is whole and
/// fits, 1 when it is damaged or longer, -1 when out of memory. Bounded: it
/// never reads past `src_size` nor writes past `dst_size`.
int mh_inflate_raw(const void *src, size_t src_size, void *dst, size_t dst_size, size_t *produced);
/// The first `dst_size` bytes of a raw deflate stream (fewer when it ends
/// first or `src` is only its beginning), with zlib, which can stop early:
/// reading a header never inflates a whole entry. 0 with `*produced` set,
/// 1 when the data is damaged, -1 when out of memory.
int mh_inflate_raw_prefix(const void *src, size_t src_size, void *dst, size_t dst_size, size_t *produced);

#ifdef __cplusplus
}
#endif
#endif
