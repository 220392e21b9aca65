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
        /// What a link names, or `nil` when the entry is not a link (a link is never a file).
        package var link: Link?
        package var isEncrypted: Bool
        /// What libarchive recognised, such as `7-Zip` or `RAR5`.
        package var format: String
    }

    /// An entry that stands for another.
    package enum Link: Equatable {
        /// A tar hard link: the name of an entry before it, from the archive's top.
        case hard(String)
        /// A symbolic link: a path relative to the link's own folder.
        case symbolic(String)
    }

    private let archive: OpaquePointer

    /// Opens the file; its kind comes from its bytes.
    /// - Throws: `CodecError` naming what is wrong.
    package init(path: String) throws {
        var error = mh_error()
        guard let archive = PathBytes.withCString(path, { mh_archive_open($0, &error) }) else { throw CodecError(error) }
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
            let target = String(cString: entry.link)
            let link: Link? = switch entry.link_kind {
            case 1: .hard(target)
            case 2: .symbolic(target)
            default: nil
            }
            return Entry(name: String(cString: entry.name), size: entry.size, isFile: entry.is_file != 0, link: link,
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
