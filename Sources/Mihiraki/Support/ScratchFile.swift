#if canImport(Glibc)
import Glibc
#endif

/// A file of scratch space with no name: made in `$TMPDIR` (or `/tmp`) with
/// `O_TMPFILE`, so no folder listing ever shows it and the kernel frees it
/// when the last descriptor closes, whether the book is released, the run
/// ends, or the process is killed. Where the file system cannot make an
/// unnamed file, a named one is made and unlinked at once. Written front to
/// back once, then read at any offset from any thread.
final class ScratchFile: Sendable {
    private let fd: Int32
    /// The folder it lives in, for messages.
    let folder: String

    init() throws {
        let folder = FileSystem.temporaryFolder
        self.folder = folder
        // O_TMPFILE is __O_TMPFILE | O_DIRECTORY, a macro Swift does not import.
        var fd = open(folder, 0o20000000 | O_DIRECTORY | O_RDWR | O_CLOEXEC, 0o600)
        if fd < 0 && [EOPNOTSUPP, EISDIR, EINVAL].contains(errno) {
            var template = Array((folder + "/.mihiraki-XXXXXX").utf8CString)
            fd = mkstemp(&template)
            if fd >= 0 {
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        guard fd >= 0 else {
            throw MihirakiError(.io, path: folder, "cannot make a scratch file to unpack into (TMPDIR): \(FileSystem.errnoText())")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// A path that opens this file for as long as it is open (Linux's
    /// `/proc/self/fd`), for readers that take a path.
    var path: String { "/proc/self/fd/\(fd)" }

    /// Appends `bytes`; `path` names what they are in errors.
    func write(_ bytes: UnsafeRawBufferPointer, path: String) throws {
        let failure = FileSystem.writeAll(fd, bytes)
        guard failure == 0 else {
            throw MihirakiError(.io, path: path, "cannot unpack into \(folder) (TMPDIR): \(FileSystem.errnoText(failure))")
        }
    }

    /// `count` bytes from `offset`; `path` names them in errors.
    func read(at offset: Int, count: Int, path: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw MihirakiError(.io, path: path, n < 0 ? "read failed: \(FileSystem.errnoText())" : "unpacked entry is shorter than listed")
            }
            done += n
        }
        return bytes
    }
}
