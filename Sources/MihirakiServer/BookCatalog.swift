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
/// interval. A rescan reads again only the folders whose entries changed
/// (their inode change time says so): the others cost one `stat`. Each book
/// served carries a signature of its files' sizes and times, taken again
/// when it is older than the refresh interval, so a changed book is noticed
/// and its cached spreads are never served again.
final class BookCatalog: Sendable {
    struct Entry: Sendable, Equatable {
        /// The path relative to ROOT, `/`-separated.
        var id: String
        /// The path on disk.
        var path: String
        var isArchive: Bool
        /// What `/api/books` calls it: `folder`, or the book file's kind by its
        /// name (`epub`, `pdf`, `zip`, `rar`, `7z`, `tar`), as the scan reads no file.
        var kind: String {
            isArchive ? (BookKind.of(name: path).map { $0.name.lowercased() } ?? "archive") : "folder"
        }
        /// Changes whenever a file of the book changes size or time; taken
        /// when the book is asked for (``book(_:)``), empty in the list.
        var signature = ""
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
    /// What each folder held at the last scan, by path, to skip reading it again.
    private let folders = Mutex<[String: Folder]>([:])
    /// Each book's signature, and when it was taken.
    private let signatures = Mutex<[ExactKey: (signature: String, takenAt: Double)]>([:])

    /// Scans `root` once, before the server answers anything.
    init(root: String, refreshSeconds: Double) throws {
        guard let resolved = FileSystem.realPath(root), FileSystem.kind(resolved) == .directory else {
            throw MihirakiError(.usage, "\(root): not a folder")
        }
        self.root = resolved
        self.refreshSeconds = refreshSeconds
        rescan()
    }

    /// How long the last scan of ROOT took, in seconds.
    var lastScanSeconds: Double { listing.withLock { $0.scanSeconds } }

    /// Every book, in natural order of their ids.
    var books: [Entry] {
        refreshIfStale()
        return listing.withLock { $0.ordered }
    }

    /// The book with this id, with its signature, or nil.
    func book(_ id: String) -> Entry? {
        refreshIfStale()
        let key = ExactKey(id)
        guard var entry = listing.withLock({ $0.byID[key] }) else { return nil }
        let now = Self.now()
        if let known = signatures.withLock({ $0[key] }), now - known.takenAt < refreshSeconds {
            entry.signature = known.signature
        } else {
            // KCC's spread labels beside the book decide its layout too.
            entry.signature = (entry.isArchive ? Self.stamp(entry.path) : Self.signature(ofFolder: entry.path, root: root))
                + "\n" + Self.stamp(KCCSpreadLabels.path(forBook: entry.path))
            signatures.withLock { $0[key] = (entry.signature, now) }
        }
        return entry
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
        DispatchQueue.global().async { self.rescan() }
    }

    /// Scans ROOT, reading only the folders that changed since the last scan.
    private func rescan() {
        let start = Self.now()
        var scan = Scan(root: root, known: folders.withLock { $0 })
        guard let entries = scan.run() else {
            let seconds = Self.now() - start
            listing.withLock { ($0.scannedAt, $0.scanning, $0.scanSeconds) = (Self.now(), false, seconds) }
            return
        }
        folders.withLock { $0 = scan.seenFolders }
        let ids = Set(entries.map { ExactKey($0.id) })
        signatures.withLock { signatures in signatures = signatures.filter { ids.contains($0.key) } }
        install(entries, took: Self.now() - start)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: Scanning

    /// What a folder held: its files, and its folders with their real paths
    /// (links resolved), links outside ROOT and dot-files left out; valid
    /// while `stamp` is.
    struct Folder: Sendable {
        /// Nil for a folder that cannot be stat'ed: it is read every time.
        var stamp: FolderStamp?
        var files: [String]
        var folders: [(name: String, real: String?)]
    }

    /// Changes whenever a folder's entries do: its inode, modification time
    /// and inode change time.
    struct FolderStamp: Equatable, Sendable {
        var device: UInt64, inode: UInt64
        var modified: Int, modifiedNanoseconds: Int, changed: Int, changedNanoseconds: Int

        init?(_ path: String) {
            guard let info = FileSystem.status(path) else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            (modified, modifiedNanoseconds) = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
            (changed, changedNanoseconds) = (info.st_ctim.tv_sec, info.st_ctim.tv_nsec)
        }
    }

    /// One walk of ROOT, reusing what `known` says of unchanged folders.
    struct Scan {
        let root: String
        let known: [String: Folder]
        private(set) var seenFolders: [String: Folder] = [:]
        /// The folders read (new or changed), in the order walked.
        private(set) var read: [String] = []
        /// Whether any folder was read again (or is gone): if not, the books are the last scan's.
        var changed: Bool { !read.isEmpty || seenFolders.count != known.count }
        private var seen = Seen()
        private var entries: [Entry] = []

        init(root: String, known: [String: Folder]) {
            self.root = root
            self.known = known
        }

        /// The books, or nil when no folder changed since the scan `known` is from.
        mutating func run() -> [Entry]? {
            walk(root, id: "", ancestors: [root])
            guard changed else { return nil }
            // Ids equal as text (NFC and NFD) are still two books: their bytes order them.
            return entries.sorted {
                NaturalOrder.less($0.id, $1.id) || (!NaturalOrder.less($1.id, $0.id) && $0.id.utf8.lexicographicallyPrecedes($1.id.utf8))
            }
        }

        /// What a folder holds: from the last scan when its stamp is unchanged.
        private mutating func children(of folder: String) -> Folder {
            let stamp = FolderStamp(folder)
            if let stamp, let cached = known[folder], cached.stamp == stamp {
                seenFolders[folder] = cached
                return cached
            }
            read.append(folder)
            let listing = BookCatalog.children(of: folder, root: root)
            let read = Folder(stamp: stamp, files: listing.files,
                              folders: listing.folders.map { ($0, FileSystem.realPath(folder + "/" + $0)) })
            if stamp != nil { seenFolders[folder] = read }
            return read
        }

        /// Books under `folder`. A link to a folder inside ROOT is followed like
        /// the folder (two ids, one book: both are served), except back into one
        /// of its own `ancestors` (a loop), past `maxDepth` folders, or once
        /// `maxRevisits` folders have been reached a second time (links that fan
        /// out to the same trees).
        private mutating func walk(_ folder: String, id: String, ancestors: Set<String>) {
            let listing = children(of: folder)
            let prefix = id.isEmpty ? "" : id + "/"
            if !id.isEmpty && listing.files.contains(where: Book.isImageName) {
                entries.append(Entry(id: id, path: folder, isArchive: false))
                return
            }
            for name in listing.files {
                let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
                guard name.contains("."), BookKind.fileExtensions.contains(ext) else { continue }
                entries.append(Entry(id: prefix + name, path: folder + "/" + name, isArchive: true))
            }
            for (name, real) in listing.folders {
                guard ancestors.count < maxDepth, let real, !ancestors.contains(real) else { continue }
                if !seen.folders.insert(real).inserted {
                    seen.revisits += 1
                    guard seen.revisits <= maxRevisits else { continue }
                }
                walk(folder + "/" + name, id: prefix + name, ancestors: ancestors.union([real]))
            }
        }
    }

    /// What a folder inside ROOT holds, links outside ROOT and dot-files
    /// left out. An entry that is not a link is inside ROOT with its folder:
    /// only links are resolved.
    private static func children(of folder: String, root: String) -> (files: [String], folders: [String]) {
        var files: [String] = [], folders: [String] = []
        for name in ((try? FileSystem.list(folder)) ?? []).sorted() where !name.hasPrefix(".") {
            let path = folder + "/" + name
            guard let info = FileSystem.status(path, followingLinks: false) else { continue }
            if info.st_mode & S_IFMT == S_IFREG {
                files.append(name)
                continue
            } else if info.st_mode & S_IFMT == S_IFDIR {
                folders.append(name)
                continue
            }
            guard info.st_mode & S_IFMT == S_IFLNK, FileSystem.isInside(path, root) else { continue }
            switch FileSystem.kind(path) {
            case .file: files.append(name)
            case .directory: folders.append(name)
            default: continue
            }
        }
        return (files, folders)
    }

    /// Size and modification time of every file in a book folder, sub-folders
    /// included, each real folder once, as the book itself lists them:
    /// followed blindly, two links back up (`up -> ..`) would keep this walk,
    /// and the request asking for the book, going for ever.
    private static func signature(ofFolder folder: String, root: String) -> String {
        var parts: [String] = []
        var walked = Set(FileSystem.identity(folder).map { [$0] } ?? [])
        func visit(_ path: String, _ relative: String) {
            let listing = children(of: path, root: root)
            for name in listing.files { parts.append(relative + name + " " + stamp(path + "/" + name)) }
            for name in listing.folders {
                guard let identity = FileSystem.identity(path + "/" + name), walked.insert(identity).inserted else { continue }
                visit(path + "/" + name, relative + name + "/")
            }
        }
        visit(folder, "")
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
        guard let info = FileSystem.status(path) else { return "?" }
        return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) "
            + "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec) \(info.st_ino)"
    }
}
