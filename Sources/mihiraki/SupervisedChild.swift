import Foundation
import Mihiraki
import MihirakiProcess
#if canImport(Glibc)
import Glibc
#endif

/// This program started again as a child that a supervisor watches: `render`
/// renders its books in one (``RenderSupervisor``) and `plan` plans its book
/// in one (``PlanCommand``), so a trap nobody foresaw ends the child, and
/// the supervisor, still standing, names the book in one line.
///
/// The child gets the supervisor's arguments, standard input and output, its
/// environment with `variables` added, a pipe on descriptor 3 for events (one
/// line each), and a pipe as standard error, passed on to the user's until
/// the Swift runtime starts telling of a crash. It learns the supervisor's
/// process (``parentVariable``) so that it can end with it.
enum SupervisedChild {
    static let eventsDescriptor: Int32 = 3
    static let parentVariable = "MIHIRAKI_SUPERVISED_PARENT"

    /// How the child ended: its exit status, or the signal that ended it.
    struct Ending {
        var exitStatus: Int32 = 0
        var signal: Int32?

        /// Whether the signal is one sent from outside (an interrupt, a
        /// closed pipe, a terminal hung up), which ends any program, as
        /// opposed to one the child met in its own work (a trap, a bad
        /// access, an abort, a kill by the out-of-memory killer).
        var sentFromOutside: Bool {
            guard let signal else { return false }
            return [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT].contains(signal)
        }
    }

    /// Ends this process by `signal`, as the child was ended by one sent
    /// from outside: its parent sees what it would have seen of one process.
    static func endBy(_ signal: Int32) -> Never {
        _ = Glibc.signal(signal, SIG_DFL)
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, signal)
        sigprocmask(SIG_UNBLOCK, &mask, nil)
        raise(signal)
        exit(128 + signal)
    }

    /// In a child: ties its life to the supervisor's, so a supervisor
    /// killed (`kill -9`, the out-of-memory killer, a container stopped)
    /// takes its child with it, rather than leaving it drawing and writing
    /// behind a run that seems gone, racing the run started next. True when
    /// not started by a supervisor; false when the supervisor is already gone.
    static func endWithSupervisor() -> Bool {
        guard let parent = ProcessInfo.processInfo.environment[parentVariable].flatMap(Int32.init) else { return true }
        return ProcessSetup.endWithParent(parent)
    }

    /// Runs the child until it ends, calling `event` with each line it
    /// writes on the events pipe.
    /// - Parameters:
    ///   - variables: added to the environment; a nil value removes one.
    ///   - doing: what the child does, for the line printed when it cannot start.
    /// - Returns: how it ended; nil when it could not be started (printed).
    static func run(adding variables: [String: String?], doing: String, event: (String) -> Void) -> Ending? {
        var events: [Int32] = [0, 0], errors: [Int32] = [0, 0]
        guard pipe(&events) == 0 else { return failedToStart(errno, doing) }
        guard pipe(&errors) == 0 else {
            close(events[0]); close(events[1])
            return failedToStart(errno, doing)
        }
        for fd in [events[0], errors[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in variables { environment[name] = value }
        // Spawned from the main thread, which lives as long as the supervisor: the child's death signal is tied to it.
        environment[parentVariable] = String(getpid())
        // The supervisor names a crashed book in one line; the runtime's
        // backtrace is asked for by setting the variable.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, events[1], eventsDescriptor)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        var pid: pid_t = 0
        let spawned = withCStrings(FileSystem.arguments) { argv in
            withCStrings(environment.map { "\($0.key)=\($0.value)" }) { envp in
                posix_spawn(&pid, "/proc/self/exe", &actions, nil, argv, envp)
            }
        }
        close(events[1])
        close(errors[1])
        guard spawned == 0 else {
            close(events[0]); close(errors[0])
            return failedToStart(spawned, doing)
        }
        var lines = LineReader(), stderrFilter = CrashTextFilter()
        var open: [Int32] = [events[0], errors[0]]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for polled in fds where polled.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(polled.fd, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    close(polled.fd)
                    open.removeAll { $0 == polled.fd }
                    continue
                }
                if polled.fd == events[0] {
                    for line in lines.take(buffer[0..<n]) { event(line) }
                } else {
                    stderrFilter.forward(buffer[0..<n])
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let (exitStatus, signal) = ChildEnding.decode(waitStatus: status)
        return Ending(exitStatus: exitStatus, signal: signal)
    }

    private static func failedToStart(_ code: Int32, _ doing: String) -> Ending? {
        printError("cannot start the \(doing) process: \(String(cString: strerror(code)))")
        return nil
    }

    /// Complete lines from a stream of bytes.
    private struct LineReader {
        var pending: [UInt8] = []
        mutating func take(_ bytes: ArraySlice<UInt8>) -> [String] {
            pending += bytes
            var lines: [String] = []
            while let newline = pending.firstIndex(of: 10) {
                lines.append(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
            return lines
        }
    }

    /// Passes the child's standard error through as it comes, until the
    /// Swift runtime starts telling of a crash (`…: Fatal error: …`, a
    /// stack trace): from there on nothing is passed, as the supervisor's
    /// own line says what happened.
    private struct CrashTextFilter {
        var pending: [UInt8] = []
        var crashed = false

        static let markers = [": Fatal error", ": Precondition failed", ": Assertion failed", "Fatal error:",
                              "Current stack trace", "Program crashed", "swift-runtime:"]

        mutating func forward(_ bytes: ArraySlice<UInt8>) {
            guard !crashed else { return }
            pending += bytes
            var out: [UInt8] = []
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                if !line.hasPrefix("mihiraki: ") && Self.markers.contains(where: line.contains) {
                    crashed = true
                    pending = []
                    break
                }
                out += pending[...newline]
                pending.removeSubrange(...newline)
            }
            // A progress line is redrawn in place, without a newline: it goes at once.
            if !crashed, pending.first == 13 {
                out += pending
                pending = []
            }
            out.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(2, raw.baseAddress! + offset, raw.count - offset)
                    if n <= 0 { if errno == EINTR { continue } else { return } }
                    offset += n
                }
            }
        }
    }

    /// Calls `body` with a NULL-terminated array of C strings.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { FileSystem.duplicate($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
