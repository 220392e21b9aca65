// libarchive behind plain C calls, for the archive kinds read sequentially:
// RAR 4 and 5, 7z, tar (and whatever else libarchive recognises from the
// bytes). Entries come one after another; their data is read in chunks, so an
// archive is never held in memory whole. libarchive reports errors by return
// codes and messages, never by jumping or exiting.
#include "lazy_codecs.h"  // libarchive itself, loaded on first use
#include "shim.h"

#include <stdlib.h>
#include <string.h>

struct mh_archive {
    struct archive *archive;
};

static void archive_failure(mh_error *error, struct archive *archive, const char *what) {
    const char *reason = archive ? archive_error_string(archive) : NULL;
    if (reason && strstr(reason, "solid") && strstr(reason, "RAR")) {
        mh_set_errorf(error, MH_ERR_CORRUPT, "a solid RAR 4 archive, which libarchive %s cannot read",
                      ARCHIVE_VERSION_ONLY_STRING);
    } else if (reason && (strstr(reason, "ncrypt") || strstr(reason, "passphrase"))) {
        mh_set_errorf(error, MH_ERR_CORRUPT, "an encrypted archive (%s)", reason);
    } else {
        mh_set_errorf(error, MH_ERR_CORRUPT, "%s: %s", what, reason && reason[0] ? reason : "damaged archive data");
    }
}

mh_archive *mh_archive_open(const char *path, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (!mh_archive_load(error)) return NULL;
    mh_archive *reader = calloc(1, sizeof *reader);
    if (reader == NULL || (reader->archive = archive_read_new()) == NULL) {
        free(reader);
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return NULL;
    }
    archive_read_support_format_all(reader->archive);
    archive_read_support_filter_all(reader->archive);
    if (archive_read_open_filename(reader->archive, path, 1 << 16) != ARCHIVE_OK) {
        archive_failure(error, reader->archive, "not a readable archive");
        mh_archive_close(reader);
        return NULL;
    }
    return reader;
}

int mh_archive_next(mh_archive *reader, mh_archive_entry *entry, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    struct archive_entry *header = NULL;
    int status = archive_read_next_header(reader->archive, &header);
    if (status == ARCHIVE_EOF) return 0;
    if (status < ARCHIVE_WARN) {
        archive_failure(error, reader->archive, "archive header is damaged");
        return -1;
    }
    const char *name = archive_entry_pathname_utf8(header);
    if (name == NULL) name = archive_entry_pathname(header);
    entry->name = name ? name : "";
    entry->size = archive_entry_size_is_set(header) ? archive_entry_size(header) : -1;
    const char *hard = archive_entry_hardlink_utf8(header);
    if (hard == NULL) hard = archive_entry_hardlink(header);
    const char *symbolic = NULL;
    if (hard == NULL && archive_entry_filetype(header) == AE_IFLNK) {
        symbolic = archive_entry_symlink_utf8(header);
        if (symbolic == NULL) symbolic = archive_entry_symlink(header);
    }
    entry->link_kind = hard != NULL ? 1 : symbolic != NULL ? 2 : 0;
    entry->link = hard != NULL ? hard : symbolic != NULL ? symbolic : "";
    entry->is_file = entry->link_kind == 0 && archive_entry_filetype(header) == AE_IFREG;
    entry->encrypted = archive_entry_is_encrypted(header) ? 1 : 0;
    entry->format = archive_format_name(reader->archive);
    return 1;
}

long mh_archive_read(mh_archive *reader, void *buffer, size_t size, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    la_ssize_t n = archive_read_data(reader->archive, buffer, size);
    if (n < 0) {
        archive_failure(error, reader->archive, "archive entry is damaged");
        return -1;
    }
    return (long)n;
}

void mh_archive_close(mh_archive *reader) {
    if (reader == NULL) return;
    if (reader->archive) archive_read_free(reader->archive);
    free(reader);
}
