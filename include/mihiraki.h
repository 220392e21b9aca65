/*
 * mihiraki.h: Mihiraki's C ABI, the one door for other languages (the
 * Python package binds to it with ctypes). Version MIHIRAKI_ABI_VERSION.
 *
 * - Opaque handles: a book (mihiraki_book) owns what it has read and the
 *   plans it has made; every call on one handle is safe from any thread.
 *   No global state beyond what a handle owns.
 * - Options are the option table's names and values as strings (the names
 *   of `mihiraki render --help`: "size", "direction", "split-wide", ...),
 *   so a new option needs no new function. mihiraki_options_json lists them.
 * - Errors: a function that can fail takes `mihiraki_error **error`; on
 *   failure it returns NULL or a negative number and, when `error` is not
 *   NULL, stores an error object the caller frees with mihiraki_error_free.
 * - Strings and pixel buffers returned are the caller's, freed with
 *   mihiraki_string_free and mihiraki_buffer_free.
 * - A NULL book (an open that failed, unchecked) or a NULL place for a
 *   result is refused as a usage error, never followed; a book already
 *   freed cannot be told from a live one and must not be passed.
 */
#ifndef MIHIRAKI_H
#define MIHIRAKI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MIHIRAKI_ABI_VERSION 1

typedef struct mihiraki_book mihiraki_book;
typedef struct mihiraki_error mihiraki_error;

/* What went wrong, as mihiraki_error_kind says it. */
enum mihiraki_error_kind {
    MIHIRAKI_ERROR_USAGE = 1,  /* a bad option, value or argument */
    MIHIRAKI_ERROR_BOOK = 2,   /* a book or page that cannot be read or written */
};

/* MIHIRAKI_ABI_VERSION of the library loaded. */
int mihiraki_abi_version(void);
/* Mihiraki's release, "0.3.0"; static, not freed. */
const char *mihiraki_version(void);

/* The one-line message, naming the file; owned by the error ("" for NULL). */
const char *mihiraki_error_message(const mihiraki_error *error);
/* A mihiraki_error_kind (0 for NULL). */
int mihiraki_error_kind(const mihiraki_error *error);
void mihiraki_error_free(mihiraki_error *error);

void mihiraki_string_free(char *string);
void mihiraki_buffer_free(uint8_t *buffer);

/* The option table as JSON: [{"name": "size", "kind": "value"|"list"|"flag",
   "value": "WxH", "help": "..."}, ...], in the table's order. */
char *mihiraki_options_json(void);

/* Opens a book (a folder, a comic archive, an EPUB or a PDF). */
mihiraki_book *mihiraki_book_open(const char *path, mihiraki_error **error);
/* Opens a book file (an archive, an EPUB or a PDF) from `size` bytes at
   `data`, copied: the caller may free them on return. `name` (for example
   "vol01.cbz") is the book's name in plans and messages; its extension
   decides the kind only where the bytes cannot. The bytes are held in an
   unnamed scratch file the system frees with the book, whatever happens to
   the process. NULL with `*error` when they are no book Mihiraki reads. */
mihiraki_book *mihiraki_book_open_memory(const void *data, size_t size, const char *name, mihiraki_error **error);
void mihiraki_book_free(mihiraki_book *book);

/* The book's image files, in the book's order, as a JSON list of their paths inside it (NULL for a NULL book). */
char *mihiraki_book_pages_json(mihiraki_book *book);

/* The number of pages as plans number them (after ComicInfo's deletions), or -1. */
ptrdiff_t mihiraki_book_page_count(mihiraki_book *book, mihiraki_error **error);

/* The plan for `count` options, as `mihiraki plan --json` prints it. `jobs`:
   pages read at once when planning reads pixels (0: all cores); the plan
   does not depend on it. */
char *mihiraki_book_plan_json(mihiraki_book *book, const char *const *names, const char *const *values,
                              size_t count, int jobs, mihiraki_error **error);

/* The number of spreads with `count` options, or -1. */
ptrdiff_t mihiraki_book_spread_count(mihiraki_book *book, const char *const *names, const char *const *values,
                                     size_t count, int jobs, mihiraki_error **error);

/* Spread `index` (0-based: the file spread-001 is 0) drawn with `count`
   options: rows top to bottom, `*width` x `*height` pixels of `*channels`
   samples (1 gray, 3 RGB, 4 RGBA), no padding, the values the CLI's PNG
   holds. Returns 0, or -1 with `*error` set. */
int mihiraki_book_spread(mihiraki_book *book, const char *const *names, const char *const *values, size_t count,
                         int jobs, size_t index, uint8_t **pixels, int *width, int *height, int *channels,
                         mihiraki_error **error);

/* Renders books to `output` as `mihiraki render` does, with `jobs` workers
   (0: all cores), printing nothing. `*result` receives JSON, one outcome per
   book in order: {"book", "folder", "written": [files], "error": null or the
   message}; a failed book does not stop the others. Returns the number of
   books that failed, or -1 (with `*error`) when nothing could start. */
int mihiraki_render(const char *const *paths, size_t path_count, const char *output, const char *const *names,
                    const char *const *values, size_t count, int jobs, char **result, mihiraki_error **error);

/* Compares two images or two folders of images as `mihiraki compare` does
   (`threshold`: pixelmatch's, 0.1 by default; `report`: a folder for the
   report page, or NULL). `*result` receives JSON: [{"name", "status",
   "differing_pixels", "total_pixels"}]. Returns the number that differ,
   or -1. */
int mihiraki_compare(const char *expected, const char *actual, double threshold, const char *report, char **result,
                     mihiraki_error **error);

/* The same with a metric, as `mihiraki compare --metric`: "pixelmatch",
   "ciede2000" or "ssim"; `threshold` on its scale, or NaN for its default
   (0.1, 1.0 ΔE00, 0.98); `shift_tolerance` as `--shift-tolerance` (0 to 16,
   or -1 for its default, 2). An unknown metric or a value off its scale is
   -1 with a usage error. */
int mihiraki_compare_metric(const char *expected, const char *actual, const char *metric, double threshold,
                            int shift_tolerance, const char *report, char **result, mihiraki_error **error);

#ifdef __cplusplus
}
#endif
#endif
