import Foundation
import Synchronization
import Mihiraki
import MihirakiCore
#if canImport(Glibc)
import Glibc
#endif

/// The books under ROOT: every folder that holds page images itself (its
/// sub-folders are its chapters), and every archive (`.cbz`, `.cbr`, `.cb7`,
/// `.cbt`, …) outside such a folder. Dot-files are skipped; a symbolic link is
/// followed only when its target is inside ROOT. The list is kept in memory
/// and scanned again, in the background, once it is older than the refresh
/// interval; each book carries a signature of its files' sizes and times, so
/// a changed book is noticed and its cached spreads are never served again.
final class BookCatalog: Sendable {
    struct Entry: Sendable, Equatable {
        /// The path relative to ROOT, `/`-separated.
        var id: String
        /// The path on disk.
        var path: String
        var isArchive: Bool
        /// Changes whenever a file of the book changes size or time.
        var signature: String
    }

    /// ROOT with every link resolved.
    let root: String
    private let refreshSeconds: Double
    /// The books found by the last scan, and whether a scan is under way.
    private struct Listing {
        var byID: [ExactKey: Entry] = [:]
        var ordered: [Entry] = []
        var scannedAt = 0.0
        var scanning = false
        var scanSeconds = 0.0
    }
    private let listing = Mutex(Listing())

    /// Scans `root` once, before the server answers anything.
    init(root: String, refreshSeconds: Double) throws {
        guard let resolved = FileSystem.realPath(root), FileSystem.kind(resolved) == .directory else {
            throw MihirakiError(.usage, "\(root): not a folder")
        }
        self.root = resolved
        self.refreshSeconds = refreshSeconds
        let start = Self.now()
        install(Self.scan(resolved), took: Self.now() - start)
    }

    /// How long the last scan of ROOT took, in seconds.
    var lastScanSeconds: Double { listing.withLock { $0.scanSeconds } }

    /// Every book, in natural order of their ids.
    var books: [Entry] {
        refreshIfStale()
        return listing.withLock { $0.ordered }
    }

    /// The book with this id, or nil.
    func book(_ id: String) -> Entry? {
        refreshIfStale()
        return listing.withLock { $0.byID[ExactKey(id)] }
    }

    private func install(_ entries: [Entry], took seconds: Double) {
        let byID = Dictionary(entries.map { (ExactKey($0.id), $0) }, uniquingKeysWith: { first, _ in first })
        listing.withLock {
            $0 = Listing(byID: byID, ordered: entries, scannedAt: Self.now(), scanning: false, scanSeconds: seconds)
        }
    }

    private func refreshIfStale() {
        let stale = listing.withLock { listing in
            let stale = !listing.scanning && Self.now() - listing.scannedAt >= refreshSeconds
            if stale { listing.scanning = true }
            return stale
        }
        guard stale else { return }
        let root = self.root
        DispatchQueue.global().async {
            let start = Self.now()
            let entries = Self.scan(root)
            self.install(entries, took: Self.now() - start)
        }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: Scanning

    private static func scan(_ root: String) -> [Entry] {
        var entries: [Entry] = []
        var seen = Seen()
        walk(root, id: "", root: root, ancestors: [root], seen: &seen, into: &entries)
        // Ids equal as text (NFC and NFD) are still two books: their bytes order them.
        return entries.sorted {
            NaturalOrder.less($0.id, $1.id) || (!NaturalOrder.less($1.id, $0.id) && $0.id.utf8.lexicographicallyPrecedes($1.id.utf8))
        }
    }

    /// What a folder holds, links outside ROOT and dot-files left out.
    private static func children(of folder: String, root: String) -> (files: [String], folders: [String]) {
        var files: [String] = [], folders: [String] = []
        for name in ((try? FileSystem.list(folder)) ?? []).sorted() where !name.hasPrefix(".") {
            let path = folder + "/" + name
            guard FileSystem.isInside(path, root) else { continue }
            switch FileSystem.kind(path) {
            case .file: files.append(name)
            case .directory: folders.append(name)
            default: continue
            }
        }
        return (files, folders)
    }

    /// Books under `folder`. A link to a folder inside ROOT is followed like
    /// the folder (two ids, one book: both are served), except back into one
    /// of its own `ancestors` (a loop), past `maxDepth` folders, or once
    /// `maxRevisits` folders have been reached a second time (links that fan
    /// out to the same trees).
    private static func walk(_ folder: String, id: String, root: String, ancestors: Set<String>,
                             seen: inout Seen, into entries: inout [Entry]) {
        let listing = children(of: folder, root: root)
        let (files, folders) = listing
        let prefix = id.isEmpty ? "" : id + "/"
        if !id.isEmpty && files.contains(where: Book.isImageName) {
            entries.append(Entry(id: id, path: folder, isArchive: false,
                                 signature: signature(ofFolder: folder, listing: listing, root: root)))
            return
        }
        for name in files {
            let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
            guard name.contains("."), BookKind.fileExtensions.contains(ext) else { continue }
            let path = folder + "/" + name
            entries.append(Entry(id: prefix + name, path: path, isArchive: true, signature: stamp(path)))
        }
        for name in folders {
            let path = folder + "/" + name
            guard ancestors.count < maxDepth, let real = FileSystem.realPath(path), !ancestors.contains(real) else { continue }
            if !seen.folders.insert(real).inserted {
                seen.revisits += 1
                guard seen.revisits <= maxRevisits else { continue }
            }
            walk(path, id: prefix + name, root: root, ancestors: ancestors.union([real]), seen: &seen, into: &entries)
        }
    }

    /// Size and modification time of every file in a book folder, sub-folders
    /// included; `listing` is the folder's own, already read.
    private static func signature(ofFolder folder: String, listing: (files: [String], folders: [String]),
                                  root: String) -> String {
        var parts: [String] = []
        func visit(_ path: String, _ relative: String, _ listing: (files: [String], folders: [String])) {
            for name in listing.files { parts.append(relative + name + " " + stamp(path + "/" + name)) }
            for name in listing.folders {
                visit(path + "/" + name, relative + name + "/", children(of: path + "/" + name, root: root))
            }
        }
        visit(folder, "", listing)
        var hasher = Hasher()
        hasher.combine(parts)
        return String(UInt(bitPattern: hasher.finalize()), radix: 16)
    }

    /// Folders deep a book may be found.
    static let maxDepth = 32
    /// Folders a scan may reach a second time, through links.
    static let maxRevisits = 10_000

    /// The folders a scan has reached, by real path, and how many it reached again.
    private struct Seen {
        var folders: Set<String> = []
        var revisits = 0
    }

    /// What changes when a file's content may have: its size, its
    /// modification time, and its inode change time (ctime), which `utime`
    /// cannot set back, with its inode (a file replaced by another).
    private static func stamp(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "?" }
        return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) "
            + "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec) \(info.st_ino)"
    }
}
