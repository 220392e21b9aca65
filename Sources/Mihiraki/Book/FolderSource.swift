import MihirakiCodecs
import Synchronization

/// A book that is a folder on disk; sub-folders are walked.
struct FolderSource: BookSource {
    let root: String
    /// When set (the server's ROOT, resolved), a file whose real path is
    /// outside it — a symbolic link out of the served tree — is listed (a
    /// page is never dropped without a word) and refused when read, failing
    /// the book by its name; such a folder fails the book when listed.
    var confinement: String? = nil
    /// The size and CRC-32 of every file read whole, so the fingerprint
    /// `render` writes after its spreads takes each page's from the read
    /// that drew it instead of reading the folder a second time.
    private let checksums = ReadChecksums()
    /// Links to folders the walk had already listed, as of the last listing.
    private let repeatedFolders = RepeatedFolders()

    /// Every file, each real folder walked once, in a fixed order: followed
    /// blindly, a link back to a folder above it (`up -> ..`) would send the
    /// walk round until the path grew too long, listing every page dozens of
    /// times, and two such links would keep it going for ever. A folder
    /// reached again through a link is skipped (its files are listed once,
    /// where the walk met it first) and named in the book's warnings.
    func listFiles() throws -> [String] {
        var files: [String] = [], walked: Set<FileSystem.Identity> = [], repeated: [String] = []
        if let identity = FileSystem.identity(root) { walked.insert(identity) }
        try walk(root, prefix: "", into: &files, walked: &walked, repeated: &repeated)
        repeatedFolders.links.withLock { $0 = repeated }
        return files
    }

    var warnings: [MihirakiError] {
        repeatedFolders.links.withLock { $0 }.map { link in
            MihirakiError(.badBook, path: displayPath(link),
                          "a link to a folder already in the book (skipped: its pages are listed once)")
        }
    }

    private func walk(_ folder: String, prefix: String, into files: inout [String], walked: inout Set<FileSystem.Identity>,
                      repeated: inout [String]) throws {
        // Every name with its exact bytes (PathBytes): one that is not UTF-8 is a page like any other.
        let names = try FileSystem.list(folder)
        for name in names.sorted() {
            let path = folder + "/" + name
            let entry = FileSystem.entry(path)
            // Only a link can lead out of the confinement: an entry that is
            // none lies inside with its folder. (Resolving every entry's path
            // cost one readlink per folder above it: a book 2,000 folders
            // deep held a served request, and a core, for minutes.)
            if entry.isLink, let confinement, !FileSystem.isInside(path, confinement) {
                if entry.kind == .directory {
                    throw MihirakiError(.badBook, path: displayPath(prefix + name), "leaves the served folder (a symbolic link outside it)")
                }
                files.append(prefix + name)  // read, it fails naming itself
                continue
            }
            switch entry.kind {
            case .directory:
                if let identity = entry.identity, !walked.insert(identity).inserted {
                    repeated.append(prefix + name)
                    continue
                }
                try walk(path, prefix: prefix + name + "/", into: &files, walked: &walked, repeated: &repeated)
            // A broken link, a named pipe or a device is listed too: named
            // as a page, reading it fails the book saying what it is
            // (`FileSystem.openFile`) rather than the page going missing.
            case .file, .missing, .other: files.append(prefix + name)
            }
        }
    }

    func read(_ relativePath: String) throws -> [UInt8] { try readRecorded(relativePath).bytes }

    /// Reads a file whole and records its checksum.
    private func readRecorded(_ relativePath: String) throws -> (bytes: [UInt8], checksum: (size: Int, crc: UInt32)) {
        let bytes = try FileSystem.read(try confined(relativePath))
        let checksum = (size: bytes.count, crc: crc32(bytes))
        checksums.record(relativePath, size: checksum.size, crc: checksum.crc)
        return (bytes, checksum)
    }

    /// The file's path, after checking that it stays inside the confinement.
    private func confined(_ relativePath: String) throws -> String {
        let path = displayPath(relativePath)
        if let confinement { try FileSystem.confine(path, to: confinement) }
        return path
    }

    func displayPath(_ relativePath: String) -> String { root + "/" + relativePath }

    /// From the last read of the file when there was one (the bytes a page
    /// was drawn from), else read now.
    func checksum(_ relativePath: String) throws -> (size: Int, crc: UInt32) {
        try checksums.recorded(relativePath) ?? readRecorded(relativePath).checksum
    }

    func readPrefix(_ relativePath: String, count: Int) throws -> [UInt8] {
        try FileSystem.readPrefix(try confined(relativePath), count: count)
    }
}

/// Checksums of files as they were read, shared by every copy of a source.
final class ReadChecksums: Sendable {
    private let files = Mutex<[String: (size: Int, crc: UInt32)]>([:])

    func record(_ path: String, size: Int, crc: UInt32) { files.withLock { $0[path] = (size, crc) } }

    func recorded(_ path: String) -> (size: Int, crc: UInt32)? { files.withLock { $0[path] } }
}

/// The links to folders already walked that the last listing skipped,
/// shared by every copy of a source.
final class RepeatedFolders: Sendable {
    let links = Mutex<[String]>([])
}
