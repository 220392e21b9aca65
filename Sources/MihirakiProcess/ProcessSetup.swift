import CMihirakiProcess
#if canImport(Glibc)
import Glibc
#endif

/// Process-wide settings the `mihiraki` program (and a test runner) makes
/// for itself, which a library must never impose on a program embedding it;
/// and the confinement of `serve`'s rendering workers. The only Swift code
/// that speaks to `CMihirakiProcess`.
package enum ProcessSetup {
    /// Keeps freed page-sized buffers for reuse instead of returning them to
    /// the system after every spread (glibc; nothing elsewhere).
    package static func keepLargeBuffers() { mh_keep_large_buffers() }

    /// Drops the lines decoding libraries print on stderr by themselves
    /// (libjxl's failure trace, dav1d's log) before Mihiraki reports the
    /// failure in one line of its own. Safe to call more than once.
    package static func quietLibraryChatter() { mh_quiet_library_chatter() }

    /// Whether standard error, as the user sees it (not the filter's pipe), is a terminal.
    package static var standardErrorIsTerminal: Bool { mh_stderr_is_terminal() != 0 }

    /// Makes this process end with its parent (process `parent`, which must
    /// have started it from a thread that lives as long as it does, such as
    /// its main thread): killed by the kernel when the parent dies, however
    /// it dies. False when the parent is already gone.
    package static func endWithParent(_ parent: Int32) -> Bool { mh_end_with_parent(parent) == 1 }

    /// Raises this process's soft limit on open descriptors to its hard
    /// limit, for `serve`: a login session starts programs with 1,024 (under
    /// a hard limit of about half a million), and that many connections held
    /// open, each sending a byte within the idle timeout, would leave the
    /// server accepting nothing more. Kept as it is when it cannot be raised.
    package static func raiseOpenFileLimit() {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }

    /// The Landlock ABI version this kernel offers, or 0 without Landlock.
    package static var landlockABI: Int { Int(mh_landlock_abi()) }

    /// Confines this process for good: descriptors from 3 up closed, at most
    /// `memoryBytes` of address space (0: no limit), no core files, no new
    /// privileges, reading below `readable` only and writing nothing but
    /// files below `scratch` (with Landlock), no socket but a local one.
    /// - Throws: the reason, when confining failed.
    package static func confine(readable: [String], scratch: String?, memoryBytes: Int) throws(ConfinementFailure) {
        var why = [CChar](repeating: 0, count: 256)
        let pointers = readable.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        let applied = pointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { list in
            mh_confine(list.baseAddress, Int32(list.count), scratch, Int64(memoryBytes), &why, why.count)
        }
        if applied < 0 {
            throw ConfinementFailure(reason: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// The exit status of a process that ran out of the memory its limit
    /// allowed (``exitOnMemoryCrash()``).
    package static let outOfMemoryStatus: Int32 = 86

    /// Makes a crash caused by a refused allocation (under the address-space
    /// limit ``confine(readable:scratch:memoryBytes:)`` sets) end this process
    /// with ``outOfMemoryStatus``, so the server can tell a page that needs
    /// more memory than a worker may use from a bug.
    package static func exitOnMemoryCrash() { _ = mh_exit_on_memory_crash(outOfMemoryStatus) }

    /// Why a process could not confine itself.
    package struct ConfinementFailure: Error {
        package var reason: String
    }
}
