import Foundation
import MihirakiCodecs
import ZIPFoundation

/// A `.cbz`/`.zip` book. ZIPFoundation lists the entries; Mihiraki reads
/// each entry itself (`pread` of its data, libdeflate for deflate, the CRC
/// checked), bounded by the sizes ``ZIPDirectory`` checked: ZIPFoundation
/// 0.9.20's inflate loop spins for ever on a deflate stream that ends early
/// (found by fuzzing), and lets zlib read past its chunk.
final class ZIPSource: BookSource, Sendable {
    /// An entry larger than this is refused rather than inflated into memory.
    static let maxEntryBytes = UInt64(FileSystem.wholeLimit)

    /// What reading one entry needs.
    struct Stored: Sendable {
        var size: UInt64
        var crc: UInt32
        var compressedSize: UInt64
        var deflated: Bool
        var dataOffset: Int
    }

    let path: String
    /// Each file entry by name.
    private let stored: [String: Stored]
    /// Entries that are symbolic links, read as the entries they name.
    private let links: ArchiveLinks
    private let fileSize: Int

    init(path: String, directory: ZIPDirectory) throws {
        self.path = path
        let archive: Archive
        do {
            // ZIPFoundation opens its file by a String path once, at the start: a
            // name that is not UTF-8 (PathBytes) is given as this process's
            // descriptor of it, which opens the same file.
            if PathBytes.bytes(path) == Array(path.utf8) {
                archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
            } else {
                let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
                guard fd >= 0 else { throw MihirakiError(.io, path: path, "cannot open: \(FileSystem.errnoText())") }
                defer { close(fd) }
                archive = try Archive(url: URL(fileURLWithPath: "/proc/self/fd/\(fd)"), accessMode: .read)
            }
        } catch {
            throw MihirakiError(.badBook, path: path, "not a readable ZIP archive", underlying: error)
        }
        var stored: [String: Stored] = [:], linkNames: [String] = []
        // ZIPFoundation lists the entries in central directory order, as ZIPDirectory read them.
        for (index, entry) in archive.enumerated() where entry.type == .file || entry.type == .symlink {
            guard index < directory.dataOffsets.count else {
                throw MihirakiError(.badBook, path: path, "a damaged ZIP archive: its entries cannot be listed")
            }
            // The first of duplicate names wins, as unzip tools do.
            let name = entryPath(entry.path)
            if stored[name] == nil {
                stored[name] = Stored(size: entry.uncompressedSize, crc: entry.checksum, compressedSize: entry.compressedSize,
                                      deflated: entry.isCompressed, dataOffset: directory.dataOffsets[index])
                if entry.type == .symlink { linkNames.append(name) }
            }
        }
        fileSize = directory.fileSize
        // A symbolic link's data is its target's path.
        var links = ArchiveLinks()
        for name in linkNames {
            guard let link = stored.removeValue(forKey: name) else { continue }
            guard link.size <= 4096 else {
                throw MihirakiError(.badBook, path: path + ":" + name, "a symbolic link whose target is longer than 4 KiB")
            }
            let target = try Self.bytes(of: link, in: path, fileSize: fileSize, place: path + ":" + name)
            links.add(name, .symbolic(String(decoding: target, as: UTF8.self)))
        }
        self.stored = stored
        self.links = links
    }

    func listFiles() throws -> [String] { Array(stored.keys) + links.names }

    /// The file entry a name stands for: itself, or what the link of that name leads to.
    private func entry(_ relativePath: String) throws -> Stored {
        let name = try links.file(for: relativePath, isFile: { stored[$0] != nil }, place: displayPath)
        guard let entry = stored[name] else {
            throw MihirakiError(.io, path: displayPath(relativePath), "no such entry")
        }
        return entry
    }

    /// The entry's stored size and CRC-32: no inflating.
    func checksum(_ relativePath: String) throws -> (size: Int, crc: UInt32) {
        let entry = try entry(relativePath)
        return (Int(clamping: entry.size), entry.crc)
    }

    func read(_ relativePath: String) throws -> [UInt8] {
        try Self.bytes(of: try entry(relativePath), in: path, fileSize: fileSize, place: displayPath(relativePath))
    }

    /// The first `count` bytes of an entry, inflating no more than that: a
    /// page's header never inflates its whole entry (an archive of 4 MB
    /// whose entries each inflated to 1 GiB made a plan hold 2 GB).
    func readPrefix(_ relativePath: String, count: Int) throws -> [UInt8] {
        let entry = try entry(relativePath), place = displayPath(relativePath)
        let wanted = min(count, Int(clamping: entry.size)), compressedSize = Int(clamping: entry.compressedSize)
        guard entry.deflated else {
            return try Self.bytes(of: entry, in: path, fileSize: fileSize, place: place, upTo: wanted, input: wanted)
        }
        // Enough input for `wanted` bytes of any stream an archiver writes
        // (deflate expands only by its blocks' headers); a stream that needs
        // more is given all of its input, its output still held to `wanted`.
        let guess = min(compressedSize, wanted + wanted / 4 + 4096)
        let prefix = try Self.bytes(of: entry, in: path, fileSize: fileSize, place: place, upTo: wanted, input: guess)
        guard prefix.count < wanted && guess < compressedSize else { return prefix }
        return try Self.bytes(of: entry, in: path, fileSize: fileSize, place: place, upTo: wanted)
    }

    /// The first `count` bytes of an entry's data (fewer when it is shorter)
    /// from its first `input` bytes as stored (all of them by default): no
    /// CRC can be checked on a part.
    private static func bytes(of entry: Stored, in path: String, fileSize: Int, place: String, upTo count: Int,
                              input: Int? = nil) throws -> [UInt8] {
        let data = try stored(entry, in: path, fileSize: fileSize, place: place, count: input)
        guard entry.deflated else { return Array(data.prefix(count)) }
        guard let prefix = inflateRawPrefix(data, count: count) else {
            throw MihirakiError(.badPage, path: place, "entry is damaged (its deflate stream is broken)")
        }
        return prefix
    }

    /// One entry's data, inflated and checked; `place` names it in errors.
    private static func bytes(of entry: Stored, in path: String, fileSize: Int, place: String) throws -> [UInt8] {
        guard entry.size <= Self.maxEntryBytes, entry.compressedSize <= Self.maxEntryBytes else {
            throw MihirakiError(.badPage, path: place, "entry is larger than 1 GiB")
        }
        func damaged(_ what: String) -> MihirakiError {
            MihirakiError(.badPage, path: place, "entry is damaged (\(what))")
        }
        let data = try stored(entry, in: path, fileSize: fileSize, place: place)
        let bytes: [UInt8]
        if entry.deflated {
            guard let inflated = inflateRaw(data, size: Int(entry.size)) else { throw damaged("its deflate stream is broken") }
            bytes = inflated
        } else {
            guard entry.size == entry.compressedSize else { throw damaged("its sizes disagree") }
            bytes = data
        }
        guard crc32(bytes) == entry.crc else { throw damaged("CRC mismatch") }
        return bytes
    }

    /// The first `count` bytes of an entry as stored (all of them by
    /// default), refused when the entry runs past the end of the archive.
    private static func stored(_ entry: Stored, in path: String, fileSize: Int, place: String, count: Int? = nil) throws -> [UInt8] {
        let compressedSize = Int(clamping: entry.compressedSize)
        guard entry.dataOffset <= fileSize, compressedSize <= fileSize - entry.dataOffset else {
            throw MihirakiError(.badPage, path: place, "entry is damaged (it runs past the end of the archive)")
        }
        return try FileSystem.readRange(path, offset: entry.dataOffset, count: min(count ?? compressedSize, compressedSize))
    }

    func displayPath(_ relativePath: String) -> String { path + ":" + relativePath }
}

extension BookKind {
    /// ZIP (`.cbz`): read in place, entry by entry (``ZIPSource``); one whose
    /// entries are neither stored nor deflated is read with libarchive.
    package static let zip = BookKind(
        name: "ZIP", extensions: ["cbz", "zip"],
        signatures: [.bytes([0x50, 0x4B, 0x03, 0x04]), .bytes([0x50, 0x4B, 0x05, 0x06])]
    ) { path in
        let directory = try ZIPDirectory(path: path)
        if directory.hasEncryptedEntries {
            throw MihirakiError(.badBook, path: path, "an encrypted ZIP archive: Mihiraki cannot read encrypted entries")
        }
        return directory.needsLibarchive ? try SequentialArchiveSource(path: path) : try ZIPSource(path: path, directory: directory)
    }
}
