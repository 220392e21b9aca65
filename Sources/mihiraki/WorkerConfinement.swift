import MihirakiProcess
import Foundation
import MihirakiServer
#if canImport(Glibc)
import Glibc
#endif

/// How `mihiraki serve`'s rendering workers are started and confined
/// (the processes themselves run ``SpreadWorker``).
enum WorkerConfinement {
    /// This program, as the server starts it again for each worker.
    static var program: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }

    /// What a worker may read besides the books: the system's libraries
    /// (libavif, libjxl and libarchive are loaded when first needed) and
    /// the fonts poppler draws PDF text with.
    static let systemFolders = ["/usr", "/lib", "/lib64", "/etc/fonts", "/etc/ld.so.cache", "/etc/localtime"]

    /// One line saying what this kernel cannot confine, or nil when it
    /// confines everything.
    static func missingProtections() -> String? {
        let abi = ProcessSetup.landlockABI
        if abi == 0 {
            return "this kernel has no Landlock: rendering workers are not confined to reading ROOT (they still have no network sockets and a memory limit)"
        }
        if abi < 4 {
            return "this kernel's Landlock (ABI \(abi)) has no network rules: workers are kept from the network by seccomp alone"
        }
        return nil
    }

    /// Becomes a rendering worker when the server started this process as
    /// one: confines it, serves requests until the server closes its input,
    /// and exits. Returns when this process is not a worker.
    static func runIfWorker() {
        guard let settings = WorkerPool.settingsOfThisWorker else { return }
        do {
            // The library unpacks sequential archives into unnamed files in TMPDIR.
            if let scratch = settings.scratch { setenv("TMPDIR", scratch, 1) }
            try ProcessSetup.confine(readable: [settings.resolvedRoot] + systemFolders, scratch: settings.scratch,
                                     memoryBytes: settings.memoryBytes)
        } catch {
            FileHandle.standardError.write(Data("mihiraki: a rendering worker could not confine itself: \(error.reason)\n".utf8))
            exit(70)
        }
        if settings.memoryBytes > 0 { ProcessSetup.exitOnMemoryCrash() }
        SpreadWorker.serve(settings)
        exit(0)
    }
}
