import MihirakiCodecs

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing output: folders made, files replaced atomically through a
/// temporary name, and the temporaries of runs that died cleaned up.
extension FileSystem {
    /// Creates a directory and its parents.
    static func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + component
            if kind(current) == .directory { continue }
            if PathBytes.withCString(current, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
                throw MihirakiError(.io, path: current, "cannot create folder: \(errnoText())")
            }
        }
    }

    /// Removes temporary files that a killed run left in `folder`, and only
    /// those: several processes, on several machines sharing the folder, may
    /// be writing into it at once. A temporary (`.NAME.~HOST~PID~RANDOM.tmp`,
    /// see ``temporaryName(for:)``) is removed when it belongs to this host and
    /// its process is gone, or when it is older than `staleAge` whoever wrote
    /// it. The first version's `.NAME.PID.RANDOM.tmp` is taken as this host's.
    /// Files of other names are never touched.
    static func removeStaleTemporaries(in folder: String, staleAge: Double = 24 * 3600) {
        guard let names = try? list(folder) else { return }
        let host = hostTag
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            guard let owner = temporaryOwner(name) else { continue }
            let path = folder + "/" + name
            var info = stat()
            guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { continue }
            let age = Double(time(nil) - info.st_mtim.tv_sec)
            let orphaned = (owner.host ?? host) == host && !mayBeWriting(owner.pid, since: Int(info.st_mtim.tv_sec))
            if orphaned || age > staleAge { remove(path) }
        }
    }

    /// Whether process `pid` of this host may still be writing a temporary
    /// last written at `modified` (seconds since 1970): it exists, it is not
    /// a zombie (killed, and not yet collected by its parent: a rendering
    /// process whose `render` was killed is one until the system collects
    /// it), and it started before the temporary was written (a process that
    /// started later has only been given a dead writer's number). Without
    /// `/proc`, a process that exists may be writing.
    static func mayBeWriting(_ pid: pid_t, since modified: Int) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        // /proc/PID/stat: the fields after the name in parentheses, the state first and the start time 20th.
        guard let stat = try? read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return true }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        if let state = fields.first?.first, state == UInt8(ascii: "Z") || state == UInt8(ascii: "X") { return false }
        if fields.count > 19, let ticks = Int(String(decoding: fields[19], as: UTF8.self)), let boot = bootTime {
            let started = boot + ticks / max(1, sysconf(Int32(_SC_CLK_TCK)))
            // Boot time is whole seconds: a margin for the rounding.
            if started > modified + 2 { return false }
        }
        return true
    }

    /// When the system started, in seconds since 1970 (`btime` in /proc/stat); nil without /proc.
    private static let bootTime: Int? = {
        guard let bytes = try? read("/proc/stat") else { return nil }
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("btime ") }
        return line.flatMap { Int($0.dropFirst("btime ".count)) }
    }()

    /// Who wrote a temporary: its host (nil in the first version's names) and process.
    static func temporaryOwner(_ name: String) -> (host: String?, pid: pid_t)? {
        let body = name.dropFirst().dropLast(4)
        if let mark = body.range(of: ".~", options: .backwards) {
            let parts = body[mark.upperBound...].split(separator: "~", omittingEmptySubsequences: false)
            guard parts.count == 3, let pid = pid_t(parts[1]), parts[2].allSatisfy(\.isNumber) else { return nil }
            return (String(parts[0]), pid)
        }
        let parts = body.split(separator: ".")
        guard parts.count >= 3, let pid = pid_t(parts[parts.count - 2]), parts.last!.allSatisfy(\.isNumber) else {
            return nil
        }
        return (nil, pid)
    }

    /// This host's name, with only letters, digits, `-` and `_`, for temporary names.
    static let hostTag: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        let name = String(terminated: buffer)
        let tag = String(name.unicodeScalars.map { scalar -> Character in
            scalar.properties.isASCIIHexDigit || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || scalar == "-" ? Character(scalar) : "_"
        })
        return tag.isEmpty ? "host" : tag
    }()

    /// `.NAME.~HOST~PID~RANDOM.tmp`: hidden, beside its final name, and
    /// saying which process on which host writes it.
    static func temporaryName(for name: String) -> String {
        ".\(name).~\(hostTag)~\(getpid())~\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// Writes all of `bytes` to `fd`: 0, or the `errno` of the write that failed.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return 0
    }

    /// Writes `bytes` to a temporary file beside `path` and renames it into
    /// place, so `path` is either absent, the old file, or the complete new one.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temp = dir + "/" + temporaryName(for: name)
        let fd = PathBytes.withCString(temp) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw MihirakiError(.io, path: path, "cannot write: \(errnoText())") }
        var failure = bytes.withUnsafeBytes { writeAll(fd, $0) }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && PathBytes.withCString(temp, { from in PathBytes.withCString(path) { rename(from, $0) } }) != 0 {
            failure = errno
        }
        if failure != 0 {
            remove(temp)
            throw MihirakiError(.io, path: path, "cannot write: \(errnoText(failure))")
        }
    }
}
