import MihirakiProcess
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `mihiraki render` renders in a child process that it watches, so a book
/// that crashes the code drawing it (a trap nobody foresaw) costs that book
/// and not the run: the supervisor names it in one line, `mihiraki: vol3.cbz:
/// internal error while rendering spread 4 (please report)`, renders the
/// other books, and exits 1.
///
/// Why a process and not a signal handler: a trap in Swift leaves the process
/// in no state to go on (locks held, buffers half-written, the runtime's
/// invariants broken), so only a fresh process is a safe place to carry on.
/// One child renders all the books, as one process would, so the common case
/// costs one `posix_spawn` (a few milliseconds) and keeps every core busy
/// across books.
///
/// The child (the same program, told by the environment) tells the
/// supervisor on a pipe what it is doing, one line at a time:
/// - `P u i,j,…`: planning is done; books i, j, … (indices into the chosen
///   books) go on to be drawn; u others were up to date, the rest failed to
///   load (and were printed);
/// - `S i n`: spread n (0-based) of book i is about to be drawn;
/// - `D i written ok skipped`: book i is finished (its errors printed).
///
/// If the child dies of a signal, the books it left unfinished are the
/// suspects: each book it was drawing is run again alone with one worker,
/// which pins down the book and the spread; the books it had not begun go on
/// in a new child. A book that kills its own child is the one named.
enum RenderSupervisor {
    static let pipeVariable = "MIHIRAKI_SUPERVISED_FD"
    static let booksVariable = "MIHIRAKI_SUPERVISED_BOOKS"
    static let jobsVariable = "MIHIRAKI_SUPERVISED_JOBS"
    static let terminalVariable = "MIHIRAKI_SUPERVISED_TERMINAL"
    static let parentVariable = "MIHIRAKI_SUPERVISED_PARENT"

    /// Set in a supervised child: where to report, which chosen books to
    /// render, and the workers when the supervisor isolates one book.
    struct Child {
        let pipe: Int32
        let books: [Int]
        let jobs: Int?
        /// The supervisor's process.
        let parent: Int32?

        static let current: Child? = {
            let environment = ProcessInfo.processInfo.environment
            guard let fd = environment[pipeVariable].flatMap(Int32.init), let list = environment[booksVariable] else { return nil }
            let books = list.split(separator: ",").compactMap { Int($0) }
            return Child(pipe: fd, books: books, jobs: environment[jobsVariable].flatMap { Int($0) },
                         parent: environment[parentVariable].flatMap { Int32($0) })
        }()

        /// Ties this child's life to the supervisor's: a supervisor killed
        /// (`kill -9`, the out-of-memory killer, a container stopped) takes
        /// its child with it, rather than leaving it drawing and writing
        /// into the output behind a run that seems gone, racing the run
        /// started next. False when the supervisor is already gone.
        func endWithSupervisor() -> Bool {
            guard let parent else { return true }
            return ProcessSetup.endWithParent(parent)
        }

        /// Whether the user's standard error is a terminal (a child's is the
        /// supervisor's pipe): the progress line is drawn only there.
        static var stderrIsTerminal: Bool {
            if let told = ProcessInfo.processInfo.environment[terminalVariable] { return told == "1" }
            return ProcessSetup.standardErrorIsTerminal
        }

        func send(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = write(pipe, buffer.baseAddress! + offset, buffer.count - offset)
                    if n <= 0 { if errno == EINTR { continue } else { return } }
                    offset += n
                }
            }
        }
    }

    /// What the supervisor learned of the whole run.
    struct Totals {
        var written = 0
        var failed = 0
        var upToDate = 0
    }

    /// What one child did before it ended.
    private struct ChildRun {
        var planned: [Int]?
        var upToDateCount = 0
        var lastSpread: [Int: Int] = [:]
        var finished: [Int: (written: Int, ok: Bool, skipped: Bool)] = [:]
        var exitStatus: Int32 = 0
        var signal: Int32?
    }

    /// Renders the chosen books (`names`, for messages) through children.
    /// - Returns: the totals; nil when a child ended with a fatal error
    ///   (exit 2), which it has printed: the run stops there.
    static func supervise(names: [String]) -> Totals? {
        var totals = Totals()
        var groups: [(books: [Int], alone: Bool)] = [(Array(names.indices), false)]
        while !groups.isEmpty {
            let (books, alone) = groups.removeFirst()
            let run = runChild(books: books, jobs: alone ? 1 : nil)
            for (_, book) in run.finished {
                totals.written += book.written
                if !book.ok { totals.failed += 1 }
                if book.skipped { totals.upToDate += 1 }
            }
            if let planned = run.planned {
                // Books that were up to date, or failed to load (printed by the child).
                totals.upToDate += run.upToDateCount
                totals.failed += max(0, books.count - planned.count - run.upToDateCount)
            }
            guard run.signal != nil else {
                if run.exitStatus == 2 { return nil }
                continue
            }
            let planned = run.planned ?? books
            let unfinished = planned.filter { run.finished[$0] == nil }
            if alone || (books.count == 1 && run.planned == nil) {
                for book in unfinished {
                    let spread = run.lastSpread[book].map { "rendering spread \($0 + 1)" } ?? "reading it"
                    printError("\(names[book]): internal error while \(spread) (please report)")
                    totals.failed += 1
                }
                continue
            }
            var suspects = unfinished.filter { run.lastSpread[$0] != nil }
            if suspects.isEmpty { suspects = unfinished }
            let rest = unfinished.filter { !suspects.contains($0) }
            groups.insert(contentsOf: suspects.map { ([$0], true) } + (rest.isEmpty ? [] : [(rest, false)]), at: 0)
        }
        return totals
    }

    private static func runChild(books: [Int], jobs: Int?) -> ChildRun {
        var run = ChildRun()
        var events: [Int32] = [0, 0], errors: [Int32] = [0, 0]
        guard pipe(&events) == 0 else { return failedToStart(errno) }
        guard pipe(&errors) == 0 else {
            close(events[0]); close(events[1])
            return failedToStart(errno)
        }
        for fd in [events[0], errors[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let childFD: Int32 = 3
        var environment = ProcessInfo.processInfo.environment
        environment[pipeVariable] = String(childFD)
        environment[booksVariable] = books.map(String.init).joined(separator: ",")
        environment[jobsVariable] = jobs.map(String.init)
        environment[terminalVariable] = Child.stderrIsTerminal ? "1" : "0"
        // Spawned from the main thread, which lives as long as the supervisor: the child's death signal is tied to it.
        environment[parentVariable] = String(getpid())
        // The supervisor names a crashed book in one line; the runtime's
        // backtrace is asked for by setting the variable.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, events[1], childFD)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        var pid: pid_t = 0
        let spawned = withCStrings(CommandLine.arguments) { argv in
            withCStrings(environment.map { "\($0.key)=\($0.value)" }) { envp in
                posix_spawn(&pid, "/proc/self/exe", &actions, nil, argv, envp)
            }
        }
        close(events[1])
        close(errors[1])
        guard spawned == 0 else {
            close(events[0]); close(errors[0])
            return failedToStart(spawned)
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
                    for line in lines.take(buffer[0..<n]) { take(line, into: &run) }
                } else {
                    stderrFilter.forward(buffer[0..<n])
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        if signal == 0 {
            run.exitStatus = (status >> 8) & 0xff
        } else {
            run.signal = signal
        }
        return run
    }

    private static func failedToStart(_ code: Int32) -> ChildRun {
        printError("cannot start the rendering process: \(String(cString: strerror(code)))")
        var run = ChildRun()
        run.exitStatus = 2
        return run
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

    private static func take(_ line: String, into run: inout ChildRun) {
        let fields = line.split(separator: " ").map(String.init)
        switch fields.first {
        case "P":
            run.planned = fields.count > 2 ? fields[2].split(separator: ",").compactMap { Int($0) } : []
            run.upToDateCount = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
        case "S" where fields.count == 3:
            if let book = Int(fields[1]), let spread = Int(fields[2]) { run.lastSpread[book] = spread }
        case "D" where fields.count == 5:
            if let book = Int(fields[1]), let written = Int(fields[2]) {
                run.finished[book] = (written, fields[3] == "1", fields[4] == "1")
            }
        default:
            break
        }
    }

    /// Calls `body` with a NULL-terminated array of C strings.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
