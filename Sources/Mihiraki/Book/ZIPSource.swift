import Foundation
import Synchronization
import ZIPFoundation

/// A `.cbz`/`.zip` book. ZIPFoundation's `Archive` is not thread-safe, so reads
/// are serialised; they are cheap next to decoding (page entries are usually
/// stored, not deflated).
final class ZIPSource: BookSource, Sendable {
    /// An entry larger than this is refused rather than inflated into memory.
    static let maxEntryBytes: UInt64 = 1 << 30

    let path: String
    /// ZIPFoundation's reader and its entries by name, one caller at a time
    /// (neither is Sendable).
    private let reader: Mutex<(archive: Archive, entries: [String: Entry])>
    /// Each entry's stored size and CRC-32, readable without the lock.
    private let stored: [String: (size: UInt64, crc: UInt32)]

    init(path: String) throws {
        self.path = path
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw MihirakiError(.badBook, path: path, "not a readable ZIP archive", underlying: error)
        }
        var entries: [String: Entry] = [:]
        for entry in archive where entry.type == .file {
            // The first of duplicate names wins, as unzip tools do.
            let name = entryPath(entry.path)
            if entries[name] == nil { entries[name] = entry }
        }
        stored = entries.mapValues { ($0.uncompressedSize, $0.checksum) }
        reader = Mutex((archive, entries))
    }

    func listFiles() throws -> [String] { Array(stored.keys) }

    /// The entry's stored size and CRC-32: no inflating.
    func checksum(_ relativePath: String) throws -> (size: Int, crc: UInt32) {
        guard let entry = stored[relativePath] else {
            throw MihirakiError(.io, path: displayPath(relativePath), "no such entry")
        }
        return (Int(clamping: entry.size), entry.crc)
    }

    func read(_ relativePath: String) throws -> [UInt8] {
        guard let entry = stored[relativePath] else {
            throw MihirakiError(.io, path: displayPath(relativePath), "no such entry")
        }
        guard entry.size <= Self.maxEntryBytes else {
            throw MihirakiError(.badPage, path: displayPath(relativePath), "entry is larger than 1 GiB")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.size))
        do {
            let checksum = try reader.withLock { reader in
                try reader.archive.extract(reader.entries[relativePath]!, skipCRC32: false) { chunk in
                // The declared size can lie; stop a bomb as it inflates.
                guard UInt64(bytes.count + chunk.count) <= Self.maxEntryBytes else {
                    throw MihirakiError(.badPage, path: self.displayPath(relativePath), "entry inflates past 1 GiB")
                }
                bytes.append(contentsOf: chunk)
            } }
            guard checksum == entry.crc else {
                throw MihirakiError(.badPage, path: displayPath(relativePath), "entry is damaged (CRC mismatch)")
            }
        } catch let error as MihirakiError {
            throw error
        } catch {
            throw MihirakiError(.badPage, path: displayPath(relativePath), "cannot extract: \(error)", underlying: error)
        }
        return bytes
    }

    func displayPath(_ relativePath: String) -> String { path + ":" + relativePath }
}

extension BookKind {
    /// ZIP (`.cbz`): read in place, entry by entry, with ZIPFoundation; one
    /// whose entries ZIPFoundation cannot inflate is read with libarchive.
    package static let zip = BookKind(
        name: "ZIP", extensions: ["cbz", "zip"],
        signatures: [.bytes([0x50, 0x4B, 0x03, 0x04]), .bytes([0x50, 0x4B, 0x05, 0x06])]
    ) { path in
        let directory = try ZIPDirectory(path: path)
        if directory.hasEncryptedEntries {
            throw MihirakiError(.badBook, path: path, "an encrypted ZIP archive: Mihiraki cannot read encrypted entries")
        }
        return directory.needsLibarchive ? try SequentialArchiveSource(path: path) : try ZIPSource(path: path)
    }
}
