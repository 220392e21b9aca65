import Foundation
import MihirakiCodecs

/// A RAR, 7z or tar book, read with libarchive. Such archives can only be
/// read front to back (a solid archive decompresses every entry before the
/// one asked for), while pages are wanted in the renderer's order, biggest
/// spreads first. So the first read unpacks every entry once, in one pass,
/// into a private temporary folder, and later reads come from there: one
/// decompression per book, never O(pages²), and memory holds one entry at a
/// time, never the archive. The folder goes with the book.
final class SequentialArchiveSource: BookSource, @unchecked Sendable {
    let path: String
    /// What libarchive recognised (`7-Zip`, `RAR5`, `POSIX ustar format`, …).
    private(set) var format = "archive"
    /// File entries by name (the first of duplicates wins), numbered in archive order.
    private var index: [String: Int] = [:]
    private var order: [String] = []
    private let lock = NSLock()
    private var folder: String?
    private var failure: MihirakiError?
    /// `ComicInfo.xml`, read during the listing so loading a book never unpacks it.
    private var comicInfo: (name: String, bytes: [UInt8])?

    /// Lists the entries (headers only) and refuses encrypted ones.
    /// - Throws: ``MihirakiError`` naming the archive and what is wrong.
    init(path: String) throws {
        self.path = path
        try wrap(path) {
            let reader = try ArchiveReader(path: path)
            while let entry = try reader.next() {
                format = entry.format
                if entry.isEncrypted {
                    throw MihirakiError(.badBook, path: path,
                                        "an encrypted archive (\(entry.format)): Mihiraki cannot read encrypted entries")
                }
                let name = entryPath(entry.name)
                guard entry.isFile, index[name] == nil else { continue }
                index[name] = order.count
                order.append(name)
                if name.lowercased() == "comicinfo.xml" && comicInfo == nil {
                    comicInfo = (name, try readEntry(reader, name: name, limit: 1 << 20))
                }
            }
        }
    }

    deinit {
        if let folder { FileSystem.removeFlatFolder(folder) }
    }

    func listFiles() throws -> [String] { order }

    func read(_ relativePath: String) throws -> [UInt8] {
        if let comicInfo, comicInfo.name == relativePath { return comicInfo.bytes }
        return try FileSystem.read(try unpackedPath(relativePath))
    }

    func readPrefix(_ relativePath: String, count: Int) throws -> [UInt8] {
        try FileSystem.readPrefix(try unpackedPath(relativePath), count: count)
    }

    func checksum(_ relativePath: String) throws -> (size: Int, crc: UInt32) {
        let bytes = try read(relativePath)
        return (bytes.count, crc32(bytes))
    }

    func displayPath(_ relativePath: String) -> String { path + ":" + relativePath }

    /// The archive file's own CRC: its bytes decide every entry, and reading
    /// them costs no decompression, so an up-to-date book is never unpacked.
    func wholeChecksum() throws -> (size: Int, crc: UInt32)? {
        try FileSystem.checksum(path)
    }

    /// Whether the entries have been unpacked (tests check that fingerprints do not).
    var isUnpacked: Bool {
        lock.lock(); defer { lock.unlock() }
        return folder != nil
    }

    private func unpackedPath(_ relativePath: String) throws -> String {
        guard let number = index[relativePath] else {
            throw MihirakiError(.io, path: displayPath(relativePath), "no such entry")
        }
        return try unpacked() + "/" + String(number)
    }

    /// The folder every entry was unpacked into, unpacking on the first call.
    private func unpacked() throws -> String {
        lock.lock(); defer { lock.unlock() }
        if let failure { throw failure }
        if let folder { return folder }
        let folder = try FileSystem.makeTemporaryFolder()
        do {
            try wrap(path) {
                let reader = try ArchiveReader(path: path)
                var chunk = [UInt8](repeating: 0, count: 1 << 20)
                var done = Set<Int>()
                while let entry = try reader.next() {
                    guard entry.isFile, let number = index[entryPath(entry.name)], done.insert(number).inserted else { continue }
                    let bytes = try readEntry(reader, name: entry.name, limit: Int(ZIPSource.maxEntryBytes),
                                              chunk: &chunk)
                    try FileSystem.writeAtomically(bytes, to: folder + "/" + String(number))
                }
            }
        } catch {
            FileSystem.removeFlatFolder(folder)
            failure = MihirakiError.from(error, path: path)
            throw failure!
        }
        self.folder = folder
        return folder
    }

    /// The current entry's data, refused past `limit` bytes.
    private func readEntry(_ reader: ArchiveReader, name: String, limit: Int) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        return try readEntry(reader, name: name, limit: limit, chunk: &chunk)
    }

    private func readEntry(_ reader: ArchiveReader, name: String, limit: Int, chunk: inout [UInt8]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try wrap(displayPath(name)) {
            while case let n = try chunk.withUnsafeMutableBytes({ try reader.read(into: $0) }), n > 0 {
                guard bytes.count + n <= limit else {
                    throw MihirakiError(.badPage, path: displayPath(name), "entry is larger than \(limit >> 20) MiB")
                }
                bytes += chunk[0..<n]
            }
        }
        return bytes
    }

    /// Runs `body`, turning libarchive's errors into a bad-book error about `path`.
    private func wrap(_ path: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as CodecError {
            throw MihirakiError(.badBook, path: path, error.message, underlying: error)
        }
    }
}

extension BookKind {
    /// RAR 4 and 5 (`.cbr`), read front to back with libarchive.
    package static let rar = BookKind(name: "RAR", extensions: ["cbr", "rar"],
                                      signatures: [.text("Rar!\u{1A}\u{07}")], open: SequentialArchiveSource.init)
    /// 7z (`.cb7`), read front to back with libarchive.
    package static let sevenZip = BookKind(name: "7z", extensions: ["cb7", "7z"],
                                           signatures: [.bytes([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C])],
                                           open: SequentialArchiveSource.init)
    /// tar (`.cbt`), read front to back with libarchive.
    package static let tar = BookKind(name: "tar", extensions: ["cbt", "tar"], signatures: [.text("ustar", at: 257)],
                                      open: SequentialArchiveSource.init)
}
