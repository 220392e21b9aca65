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
/// in a new child. A book that kills its own child is the one named: as an
/// internal error, or as killed when SIGKILL ended it (the out-of-memory
/// killer, which the book's retry with one worker may already have
/// escaped). A signal sent from outside to the child alone (an operator's
/// SIGTERM) ends the supervisor by the same signal, as it ended the program
/// when it was one process.
enum RenderSupervisor {
    static let pipeVariable = "MIHIRAKI_SUPERVISED_FD"
    static let booksVariable = "MIHIRAKI_SUPERVISED_BOOKS"
    static let jobsVariable = "MIHIRAKI_SUPERVISED_JOBS"
    static let terminalVariable = "MIHIRAKI_SUPERVISED_TERMINAL"

    /// Set in a supervised child: where to report, which chosen books to
    /// render, and the workers when the supervisor isolates one book.
    struct Child {
        let pipe: Int32
        let books: [Int]
        let jobs: Int?

        static let current: Child? = {
            let environment = ProcessInfo.processInfo.environment
            guard let fd = environment[pipeVariable].flatMap(Int32.init), let list = environment[booksVariable] else { return nil }
            let books = list.split(separator: ",").compactMap { Int($0) }
            return Child(pipe: fd, books: books, jobs: environment[jobsVariable].flatMap { Int($0) })
        }()

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
        var ending = SupervisedChild.Ending()
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
            guard let signal = run.ending.signal else {
                if run.ending.exitStatus == 2 { return nil }
                continue
            }
            // A signal sent from outside to the child alone (an operator's
            // kill) ends the run as it ended the program when it was one process.
            if run.ending.sentFromOutside { SupervisedChild.endBy(signal) }
            let planned = run.planned ?? books
            let unfinished = planned.filter { run.finished[$0] == nil }
            if alone || (books.count == 1 && run.planned == nil) {
                for book in unfinished {
                    let spread = run.lastSpread[book].map { "rendering spread \($0 + 1)" } ?? "reading it"
                    printError(ChildEnding.line(names[book], while: spread, signal: signal))
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
        let variables: [String: String?] = [pipeVariable: String(SupervisedChild.eventsDescriptor),
                         booksVariable: books.map(String.init).joined(separator: ","),
                         jobsVariable: jobs.map(String.init),
                         terminalVariable: Child.stderrIsTerminal ? "1" : "0"]
        guard let ending = SupervisedChild.run(adding: variables, doing: "rendering", event: { take($0, into: &run) }) else {
            run.ending.exitStatus = 2
            return run
        }
        run.ending = ending
        return run
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
}
