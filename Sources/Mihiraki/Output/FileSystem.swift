#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// The few file operations Mihiraki needs, as POSIX calls with errors that
/// name the file.
enum FileSystem {
    static func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// The whole file.
    static func read(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MihirakiError(.io, path: path, "cannot open: \(errnoText())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw MihirakiError(.io, path: path, "cannot stat: \(errnoText())") }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw MihirakiError(.io, path: path, "is a folder, not a file") }
        return try drain(fd, path: path, sizeHint: Int(info.st_size), limit: .max)
    }

    /// Reads from `fd` until end of file or `limit` bytes, straight into the
    /// array (no staging buffer), growing it if the file is longer than hinted.
    private static func drain(_ fd: Int32, path: String, sizeHint: Int, limit: Int) throws -> [UInt8] {
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

    enum Kind { case file, directory, missing, other }

    static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Names in a directory, without `.` and `..`.
    static func list(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else {
            throw MihirakiError(.io, path: path, "cannot read folder: \(errnoText())")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates a directory and its parents.
    static func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + component
            if kind(current) == .directory { continue }
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw MihirakiError(.io, path: current, "cannot create folder: \(errnoText())")
            }
        }
    }

    /// Removes temporary files a killed run left in `folder` (named by
    /// `writeAtomically`: `.NAME.PID.RANDOM.tmp`). Files of other names are
    /// never touched.
    static func removeStaleTemporaries(in folder: String) {
        guard let names = try? list(folder) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let parts = name.dropFirst().dropLast(4).split(separator: ".")
            guard parts.count >= 3, parts.suffix(2).allSatisfy({ $0.allSatisfy(\.isNumber) }) else { continue }
            unlink(folder + "/" + name)
        }
    }

    /// Writes `bytes` to a temporary file beside `path` and renames it into
    /// place, so `path` is either absent, the old file, or the complete new one.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temp = "\(dir)/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw MihirakiError(.io, path: path, "cannot write: \(errnoText())") }
        var offset = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temp, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temp)
            throw MihirakiError(.io, path: path, "cannot write: \(errnoText(failure))")
        }
    }
}

extension FileSystem {
    /// Up to `count` leading bytes of a file (fewer only when the file is shorter).
    static func readPrefix(_ path: String, count: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MihirakiError(.io, path: path, "cannot open: \(errnoText())") }
        defer { close(fd) }
        return try drain(fd, path: path, sizeHint: count, limit: count)
    }
}
