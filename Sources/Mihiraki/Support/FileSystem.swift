import MihirakiCodecs

#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// The few file operations Mihiraki needs, as POSIX calls with errors that
/// name the file.
package enum FileSystem {
    package static func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// This program's arguments with their exact bytes (``PathBytes``):
    /// `CommandLine.arguments` replaces bytes that are not UTF-8, so a book
    /// named `d\xFF` would be looked for as `d\u{FFFD}`.
    package static var arguments: [String] {
        (0..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0].map { PathBytes.string(cString: $0) } ?? "" }
    }

    /// A copy of `text` as a C string with its exact bytes (free it with
    /// `free`): what passes ``arguments`` on to another program.
    package static func duplicate(_ text: String) -> UnsafeMutablePointer<CChar>? {
        PathBytes.withCString(text) { strdup($0) }
    }

    /// `stat` (or, not following a link, `lstat`) of `path` by its exact bytes; nil when it fails.
    package static func status(_ path: String, followingLinks: Bool = true) -> stat? {
        var info = stat()
        let result = PathBytes.withCString(path) { followingLinks ? stat($0, &info) : lstat($0, &info) }
        return result == 0 ? info : nil
    }

    /// The folder for temporary files: `$TMPDIR`, or `/tmp` when it is unset or empty.
    package static var temporaryFolder: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// A path from its exact bytes, and back (``PathBytes``).
    package static func path<C: Collection>(bytes: C) -> String where C.Element == UInt8 { PathBytes.string(bytes) }
    package static func bytes(ofPath path: String) -> [UInt8] { PathBytes.bytes(path) }
    package static func path(cString: UnsafePointer<CChar>) -> String { PathBytes.string(cString: cString) }

    /// A path or name as a person reads it: bytes that are not UTF-8 as `\xFF`.
    package static func shown(_ path: String) -> String { PathBytes.shown(path) }

    /// The path with every symbolic link resolved, or nil when it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return PathBytes.string(cString: resolved)
    }

    /// Refuses `path` unless, links resolved, it is `folder` (already
    /// resolved) or inside it. A path that cannot be resolved is refused
    /// too, for why (it may open where its resolved form could not be checked).
    package static func confine(_ path: String, to folder: String) throws {
        guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { throw openError(path, errno) }
        defer { free(resolved) }
        guard isWithin(PathBytes.string(cString: resolved), folder) else {
            throw MihirakiError(.io, path: path, "leaves the served folder (a symbolic link outside it)")
        }
    }

    /// Why `path` cannot be opened, from `code` (an `errno`).
    private static func openError(_ path: String, _ code: Int32) -> MihirakiError {
        var link = stat()
        if code == ENOENT && PathBytes.withCString(path, { lstat($0, &link) }) == 0 {
            return MihirakiError(.io, path: path, "a symbolic link to a file that does not exist")
        }
        return MihirakiError(.io, path: path, "cannot open: \(errnoText(code))")
    }

    /// Whether `path`, links resolved, is `folder` (already resolved) or inside it.
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        realPath(path).map { isWithin($0, folder) } ?? false
    }

    /// The folder part of `path`, by name (no file is looked at): `a/b` for
    /// `a/b/c`, `/` for `/c`, `""` for `c`. Trailing slashes are ignored.
    /// (Foundation's `deletingLastPathComponent` traps on some one-letter
    /// paths; this is plain string work.)
    package static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        var folder = trimmed[..<slash]
        while folder.count > 1 && folder.hasSuffix("/") { folder = folder.dropLast() }
        return String(folder)
    }

    /// The last component of `path`, by name: `c` for `a/b/c` and `a/b/c/`.
    package static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed != "/" else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// Whether the resolved path `path` is `folder` or below it, by name.
    static func isWithin(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// The most read of one file whole (a page, an image to compare, a
    /// manifest) or of an archive's entry (``ZIPSource/maxEntryBytes``): 1 GiB.
    static let wholeLimit = 1 << 30

    /// A file whole. One over ``wholeLimit`` is refused by its size, unread:
    /// a file of many GiB (a sparse one costs nothing to make) ended the
    /// process failing to allocate it.
    static func read(_ path: String) throws -> [UInt8] {
        guard let bytes = try read(path, atMost: wholeLimit) else {
            throw MihirakiError(.tooLarge, path: path, "file is larger than \(wholeLimit >> 30) GiB")
        }
        return bytes
    }

    /// A file whole when it is at most `limit` bytes, else nil: told by its
    /// size before a byte is read, and read no further than `limit + 1`
    /// bytes should it grow meanwhile.
    static func read(_ path: String, atMost limit: Int) throws -> [UInt8]? {
        let (fd, size) = try openFile(path)
        defer { close(fd) }
        guard size <= limit else { return nil }
        let bytes = try drain(fd, path: path, sizeHint: size, limit: limit + 1)
        return bytes.count <= limit ? bytes : nil
    }

    /// Opens a regular file for reading, with its size. Anything else is
    /// refused by name before a byte is read: a named pipe would block the
    /// read until some writer came (so it is opened without waiting), and a
    /// device such as `/dev/zero` would never end.
    package static func openFile(_ path: String) throws -> (fd: Int32, size: Int) {
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw openError(path, errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw MihirakiError(.io, path: path, "cannot stat: \(errnoText(code))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw MihirakiError(.io, path: path, "is \(name(of: info.st_mode)), not a file")
        }
        return (fd, Int(info.st_size))
    }

    /// What a file of this mode is, in a user's words: `a file`, `a folder`,
    /// `a named pipe`, `a device`, `a socket` (`stat`'s `st_mode`).
    package static func name(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a file"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// Reads from `fd` until end of file or `limit` bytes, straight into the
    /// array (no staging buffer), growing it if the file is longer than hinted.
    fileprivate static func drain(_ fd: Int32, path: String, sizeHint: Int, limit: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(min(sizeHint, limit), 0) + (limit > sizeHint ? 1 : 0))
        var filled = 0
        while filled < limit {
            if filled == bytes.count { bytes += [UInt8](repeating: 0, count: min(max(bytes.count, 1 << 16), limit - filled)) }
            let n = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw MihirakiError(.io, path: path, "read failed: \(errnoText())")
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    package enum Kind { case file, directory, missing, other }

    /// A file or folder as the system knows it, whatever path or link reaches it.
    package struct Identity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// The identity of what `path` names (links followed), or nil when it cannot be read.
    package static func identity(_ path: String) -> Identity? {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    package static func kind(_ path: String) -> Kind {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return .missing }
        return kind(of: info.st_mode)
    }

    private static func kind(of mode: mode_t) -> Kind {
        switch mode & S_IFMT {
        case S_IFREG: .file
        case S_IFDIR: .directory
        default: .other
        }
    }

    /// What a folder's entry names (links followed), its identity, and
    /// whether the entry is itself a link: one `lstat`, and a `stat` only
    /// for a link.
    package static func entry(_ path: String) -> (kind: Kind, identity: Identity?, isLink: Bool) {
        var info = stat()
        guard PathBytes.withCString(path, { lstat($0, &info) }) == 0 else { return (.missing, nil, false) }
        let isLink = info.st_mode & S_IFMT == S_IFLNK
        if isLink && PathBytes.withCString(path, { stat($0, &info) }) != 0 { return (.missing, nil, true) }
        return (kind(of: info.st_mode), Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), isLink)
    }

    /// Names in a directory, without `.` and `..`, each with its exact
    /// bytes (``PathBytes``: a name that is not valid UTF-8 is listed too).
    package static func list(_ path: String) throws -> [String] {
        guard let dir = PathBytes.withCString(path, { opendir($0) }) else {
            throw MihirakiError(.io, path: path, "cannot read folder: \(errnoText())")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { PathBytes.string($0.prefix(while: { $0 != 0 })) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

extension FileSystem {
    /// Removes a file; a file that is already gone is not an error.
    package static func remove(_ path: String) { _ = PathBytes.withCString(path) { unlink($0) } }

    /// Up to `count` leading bytes of a file (fewer only when the file is shorter).
    static func readPrefix(_ path: String, count: Int) throws -> [UInt8] {
        let (fd, size) = try openFile(path)
        defer { close(fd) }
        return try drain(fd, path: path, sizeHint: min(size, count), limit: count)
    }
}

extension FileSystem {
    /// `count` bytes from `offset` (fewer at the end of the file).
    static func readRange(_ path: String, offset: Int, count: Int) throws -> [UInt8] {
        let fd = try openFile(path).fd
        defer { close(fd) }
        guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else { throw MihirakiError(.io, path: path, "cannot seek: \(errnoText())") }
        return try drain(fd, path: path, sizeHint: count, limit: count)
    }

    /// The last `count` bytes (all of them in a shorter file).
    static func readTail(_ path: String, count: Int) throws -> [UInt8] {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else {
            throw MihirakiError(.io, path: path, "cannot stat: \(errnoText())")
        }
        let size = Int(info.st_size)
        return try readRange(path, offset: max(0, size - count), count: min(count, size))
    }

    /// The size and CRC-32 of a whole file, read through one 4 MiB buffer.
    static func checksum(_ path: String) throws -> (size: Int, crc: UInt32) {
        let fd = try openFile(path).fd
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4 << 20)
        var crc: UInt32 = 0, size = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw MihirakiError(.io, path: path, "read failed: \(errnoText())")
            }
            if n == 0 { return (size, crc) }
            crc = buffer.withUnsafeBytes { crc32(UnsafeRawBufferPointer(rebasing: $0[..<n]), continuing: crc) }
            size += n
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
