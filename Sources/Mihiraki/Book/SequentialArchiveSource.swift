import Foundation
import MihirakiCodecs
import Synchronization

/// A RAR, 7z or tar book, read with libarchive. Such archives can only be
/// read front to back (a solid archive decompresses every entry before the
/// one asked for), while pages are wanted in the renderer's order, biggest
/// spreads first. So the first read unpacks every entry once, in one pass,
/// into one unnamed scratch file (``ScratchFile``), and later reads come
/// from there: one decompression per book, never O(pages²), and memory
/// holds one entry at a time, never the archive. The file has no name, so
/// it goes with the book, or with the process however it ends: nothing
/// unpacked outlives a run.
final class SequentialArchiveSource: BookSource, Sendable {
    let path: String
    /// What libarchive recognised (`7-Zip`, `RAR5`, `POSIX ustar format`, …).
    let format: String
    /// File entries by name (the first of duplicates wins), numbered in archive order.
    private let index: [String: Int]
    /// Every name listed, files and links, in archive order.
    private let order: [String]
    /// Entries that are links (a tar's hard links, symbolic links), read as what they name.
    private let links: ArchiveLinks
    /// `ComicInfo.xml`, read during the listing so loading a book never unpacks it.
    private let comicInfo: (name: String, bytes: [UInt8])?
    /// The entries unpacked, or why they could not be; `nil` before the first read.
    private let unpacking = Mutex<Result<Unpacked, MihirakiError>?>(nil)

    /// Every file entry in one scratch file: entry number → its bytes' place.
    private struct Unpacked: Sendable {
        var file: ScratchFile
        var places: [Int: (offset: Int, size: Int)]
    }

    /// Lists the entries (headers only) and refuses encrypted ones.
    /// - Throws: ``MihirakiError`` naming the archive and what is wrong.
    init(path: String) throws {
        self.path = path
        var format = "archive", index: [String: Int] = [:], order: [String] = [], links = ArchiveLinks()
        var comicInfo: (name: String, bytes: [UInt8])?
        try Self.wrap(path) {
            let reader = try ArchiveReader(path: path)
            while let entry = try reader.next() {
                format = entry.format
                if entry.isEncrypted {
                    throw MihirakiError(.badBook, path: path,
                                        "an encrypted archive (\(entry.format)): Mihiraki cannot read encrypted entries")
                }
                let name = entryPath(entry.name)
                guard index[name] == nil, !links.contains(name) else { continue }
                if let link = entry.link {
                    links.add(name, link)
                    order.append(name)
                    continue
                }
                guard entry.isFile else { continue }
                index[name] = order.count
                order.append(name)
                if name.lowercased() == "comicinfo.xml" && comicInfo == nil {
                    var chunk = [UInt8](repeating: 0, count: 1 << 16)
                    // One byte past the limit at most: enough for the book to tell a larger one.
                    comicInfo = (name, try Self.readEntry(reader, at: path + ":" + name, upTo: Book.comicInfoLimit + 1,
                                                          chunk: &chunk))
                }
            }
        }
        (self.format, self.index, self.order, self.links, self.comicInfo) = (format, index, order, links, comicInfo)
    }

    func listFiles() throws -> [String] { order }

    func read(_ relativePath: String) throws -> [UInt8] {
        let entry = try fileEntry(relativePath)
        if let comicInfo, comicInfo.name == entry { return comicInfo.bytes }
        let (file, place) = try unpackedPlace(entry)
        return try file.read(at: place.offset, count: place.size, path: displayPath(entry))
    }

    func readPrefix(_ relativePath: String, count: Int) throws -> [UInt8] {
        let entry = try fileEntry(relativePath)
        if let comicInfo, comicInfo.name == entry { return Array(comicInfo.bytes.prefix(count)) }
        let (file, place) = try unpackedPlace(entry)
        return try file.read(at: place.offset, count: min(count, place.size), path: displayPath(entry))
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
    var isUnpacked: Bool { unpacking.withLock { if case .success? = $0 { true } else { false } } }

    /// The file entry a name stands for: itself, or what the link of that name leads to.
    private func fileEntry(_ relativePath: String) throws -> String {
        try links.file(for: relativePath, isFile: { index[$0] != nil }, place: displayPath)
    }

    /// Where the file entry `entry` (a name ``fileEntry(_:)`` gave) was unpacked.
    private func unpackedPlace(_ entry: String) throws -> (ScratchFile, (offset: Int, size: Int)) {
        guard let number = index[entry] else {
            throw MihirakiError(.io, path: displayPath(entry), "no such entry")
        }
        let unpacked = try unpacked()
        // An entry listed but not met again while unpacking reads as empty,
        // which its decoder then names.
        return (unpacked.file, unpacked.places[number] ?? (0, 0))
    }

    /// Every entry unpacked, unpacking on the first call.
    private func unpacked() throws -> Unpacked {
        try unpacking.withLock { state in
            if let state { return try state.get() }
            let result = Result { try Self.unpack(path, index: index) }.mapError { MihirakiError.from($0, path: path) }
            state = result
            return try result.get()
        }
    }

    /// Every entry of `index`, in one pass, each streamed into the scratch
    /// file after the one before: one chunk in memory, never an entry. An entry past
    /// 1 GiB is refused, and so is an archive unpacking to more than
    /// ``unpackRatio`` times its own size (``unpackFloor`` at least): a CB7
    /// of 123 KB unpacked three 256 MiB entries, and one of a few MB could
    /// fill the temporary folder's disk.
    private static func unpack(_ path: String, index: [String: Int]) throws -> Unpacked {
        let file = try ScratchFile()
        var places: [Int: (offset: Int, size: Int)] = [:]
        var info = stat()
        let archiveSize = PathBytes.withCString(path, { stat($0, &info) }) == 0 ? Int(info.st_size) : 0
        let entryLimit = Int(ZIPSource.maxEntryBytes)
        let budget = max(unpackFloor, archiveSize > Int.max / unpackRatio ? Int.max : archiveSize * unpackRatio)
        var unpacked = 0
        try wrap(path) {
            let reader = try ArchiveReader(path: path)
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while let entry = try reader.next() {
                guard entry.isFile, let number = index[entryPath(entry.name)], places[number] == nil else { continue }
                let place = path + ":" + entry.name, start = unpacked
                try wrap(place) {
                    while case let n = try chunk.withUnsafeMutableBytes({ try reader.read(into: $0) }), n > 0 {
                        guard unpacked - start + n <= entryLimit else {
                            throw MihirakiError(.badPage, path: place, "entry is larger than \(entryLimit >> 20) MiB")
                        }
                        guard unpacked + n <= budget else {
                            throw MihirakiError(.badBook, path: path, "unpacks to more than \(unpackRatio) times its size "
                                                + "(\(budget >> 20) MiB; a decompression bomb?)")
                        }
                        try chunk.withUnsafeBytes { try file.write(UnsafeRawBufferPointer(rebasing: $0[..<n]), path: place) }
                        unpacked += n
                    }
                }
                places[number] = (start, unpacked - start)
            }
        }
        return Unpacked(file: file, places: places)
    }

    /// How many times its own size an archive may unpack to (pages are
    /// compressed images, which no archiver shrinks much further).
    static let unpackRatio = 100, unpackFloor = 64 << 20

    /// The current entry's first `count` bytes (all of it when shorter);
    /// `place` names it in errors.
    private static func readEntry(_ reader: ArchiveReader, at place: String, upTo count: Int, chunk: inout [UInt8]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try wrap(place) {
            while bytes.count < count, case let n = try chunk.withUnsafeMutableBytes({ try reader.read(into: $0) }), n > 0 {
                bytes += chunk[0..<min(n, count - bytes.count)]
            }
        }
        return bytes
    }

    /// Runs `body`, turning libarchive's errors into a bad-book error about `path`.
    private static func wrap(_ path: String, _ body: () throws -> Void) throws {
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
