#if canImport(Glibc)
import Glibc
#endif

/// The words for a child process that ended by a signal, shared by the
/// supervisors of `render` and `plan` and by `serve`'s workers, so that
/// every one-line message tells a crash and a kill apart the same way.
///
/// A crash (a trap, a bad access, an abort) is Mihiraki's own failure:
/// "internal error … (please report)". SIGKILL is never one: Mihiraki's
/// code cannot raise it against itself, and what sends it to a child alone
/// is almost always the kernel's out-of-memory killer or a container's
/// memory limit, so the line says so instead of asking for a report.
package enum ChildEnding {
    /// How a child ended, from the status `waitpid` gave: its exit status,
    /// or the signal that ended it.
    package static func decode(waitStatus status: Int32) -> (exitStatus: Int32, signal: Int32?) {
        let signal = status & 0x7f
        return signal == 0 ? ((status >> 8) & 0xff, nil) : (0, signal)
    }

    /// The signal's name (`SIGSEGV`), or `signal N` for one not named here.
    package static func name(_ signal: Int32) -> String {
        let names: [Int32: String] = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL",
                                      SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
                                      SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM",
                                      SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS"]
        return names[signal] ?? "signal \(signal)"
    }

    /// The line (without the program's name) for `book` when the process
    /// doing `what` for it ("rendering spread 4", "planning it") ended by
    /// `signal`: "killed by SIGKILL … (out of memory?)" for SIGKILL, else
    /// "internal error … (please report)", with `detail` (how a worker
    /// ended) in the parentheses when given.
    package static func line(_ book: String, while what: String, signal: Int32?, detail: String? = nil) -> String {
        if signal == SIGKILL { return "\(book): killed by SIGKILL while \(what) (out of memory?)" }
        return "\(book): internal error while \(what) (\(detail.map { $0 + "; " } ?? "")please report)"
    }
}
