import CMihirakiCodecs

/// An archive read in sequence through libarchive (RAR, 7z, tar, …): entry
/// after entry, each entry's data in chunks. Never random access, never the
/// whole archive in memory.
package final class ArchiveReader {
    /// One entry's header.
    package struct Entry {
        package var name: String
        /// -1 when the header does not say.
        package var size: Int64
        package var isFile: Bool
        package var isEncrypted: Bool
        /// What libarchive recognised, such as `7-Zip` or `RAR5`.
        package var format: String
    }

    private let archive: OpaquePointer

    /// Opens the file; its kind comes from its bytes.
    /// - Throws: `CodecError` naming what is wrong.
    package init(path: String) throws {
        var error = mh_error()
        guard let archive = mh_archive_open(path, &error) else { throw CodecError(error) }
        self.archive = archive
    }

    deinit { mh_archive_close(archive) }

    /// The next entry, or `nil` at the end.
    package func next() throws -> Entry? {
        var entry = mh_archive_entry()
        var error = mh_error()
        switch mh_archive_next(archive, &entry, &error) {
        case 0: return nil
        case 1:
            return Entry(name: String(cString: entry.name), size: entry.size, isFile: entry.is_file != 0,
                         isEncrypted: entry.encrypted != 0, format: entry.format.map { String(cString: $0) } ?? "archive")
        default: throw CodecError(error)
        }
    }

    /// Reads the current entry's data into `buffer`: the bytes read, 0 at its end.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var error = mh_error()
        let n = mh_archive_read(archive, buffer.baseAddress, buffer.count, &error)
        guard n >= 0 else { throw CodecError(error) }
        return n
    }
}
