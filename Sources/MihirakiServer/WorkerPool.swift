import Foundation
import HTTPTypes
import Mihiraki
import MihirakiProcess
import MihirakiRequests
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The server's rendering workers: processes of the `mihiraki` program that
/// render one spread at a time for the server, so a page that crashes,
/// hangs or exhausts memory costs one request, never the server
/// (SPEC §6, "The service survives what it renders"). The cache, the catalog
/// and HTTP stay in the server; each worker confines itself before it reads
/// a request (`SpreadWorker`).
///
/// A worker is taken for one request and given back after it; one that dies,
/// or runs past the request's deadline (then it is killed), is replaced by a
/// new one when next needed. The render queue allows at most
/// ``ServerOptions/jobs`` renders at once, which is the pool's size.
package final class WorkerPool: Sendable {
    /// The environment variable that makes the `mihiraki` program a worker:
    /// its value is the pool's settings as JSON (``Settings``).
    package static let variable = "MIHIRAKI_SPREAD_WORKER"

    /// What a worker is told when it starts.
    package struct Settings: Codable, Sendable {
        /// ROOT as given, and resolved: the worker reads books below it only.
        package var root: String
        package var resolvedRoot: String
        package var maxPixels: Int
        /// Address space a worker may use, in bytes (`--worker-memory`).
        package var memoryBytes: Int
        /// The one folder a worker may write in, its `TMPDIR`: the pool's
        /// own, made under the server's `TMPDIR`, where a tar, 7z or RAR book
        /// is unpacked into unnamed files. Removed when the pool shuts down.
        package var scratch: String? = nil
    }

    /// The settings a worker was started with, when this process is one.
    package static var settingsOfThisWorker: Settings? {
        guard let text = ProcessInfo.processInfo.environment[variable] else { return nil }
        return try? JSONDecoder().decode(Settings.self, from: Data(text.utf8))
    }

    private struct Worker: Sendable {
        var pid: pid_t
        /// Requests go in here; answers come out of `answers`.
        var requests: Int32
        var answers: Int32
    }

    private let program: String
    private let settings: Settings
    private let idle = Mutex<[Worker]>([])
    private let replaced = Atomic<Int>(0)

    init(program: String, settings: Settings) {
        self.program = program
        var settings = settings
        var template = Array((FileSystem.temporaryFolder + "/mihiraki-workers-XXXXXX").utf8CString)
        // Without one (an unwritable TMPDIR) a worker may write nothing, and
        // an archive that needs unpacking fails its request in one line.
        settings.scratch = mkdtemp(&template).map { String(cString: $0) }
        self.settings = settings
    }

    /// Workers that died or were killed and were replaced, since the start.
    var replacements: Int { replaced.load(ordering: .relaxed) }

    /// Renders `request` in a worker, waiting at most until `deadline`.
    /// - Parameter book: the book's id, for messages.
    /// - Throws: ``ServerError``: the worker's own answer for a book or page
    ///   it could not read (422, 400, 503), 504 past the deadline (the worker
    ///   is killed), 500 naming the book when the worker died.
    func render(_ request: WorkerRequest, deadline: ContinuousClock.Instant, book: String) throws -> [UInt8] {
        // A worker that dies is replaced and the request tried once more: a
        // worker killed from outside (the OOM killer, an operator) then costs
        // nothing, and a page that kills every worker costs two.
        var attempt = 1
        while true {
            do {
                return try renderOnce(request, deadline: deadline, book: book)
            } catch let died as WorkerDied {
                if attempt == 2 || ContinuousClock.now >= deadline {
                    let what = request.manifest == true ? "planning" : "rendering spread \(request.spread)"
                    throw ServerError(.internalServerError, ChildEnding.line(book, while: what, signal: died.signal, detail: "the worker \(died.how)"))
                }
                attempt += 1
            }
        }
    }

    /// A worker ended without answering.
    private struct WorkerDied: Error {
        var how: String
        var signal: Int32? = nil
    }

    private func renderOnce(_ request: WorkerRequest, deadline: ContinuousClock.Instant, book: String) throws -> [UInt8] {
        var worker = try take()
        var request = request
        let left = deadline - ContinuousClock.now
        request.millisecondsLeft = max(0, Int(left.components.seconds) * 1000 + Int(left.components.attoseconds / 1_000_000_000_000_000))
        let payload = (try? JSONEncoder().encode(request)).map { Array($0) } ?? []
        if !WorkerFrame.write(payload, to: worker.requests) {
            // A worker that died between requests: a new one.
            discard(worker)
            worker = try take()
            guard WorkerFrame.write(payload, to: worker.requests) else {
                discard(worker)
                throw WorkerDied(how: "could not be given the request")
            }
        }
        return try answer(from: worker, request: request, deadline: deadline, book: book)
    }

    private func answer(from worker: Worker, request: WorkerRequest, deadline: ContinuousClock.Instant,
                        book: String) throws -> [UInt8] {
        // Wait for the answer's first byte until the deadline.
        while true {
            let left = deadline - ContinuousClock.now
            let milliseconds = left <= .zero ? 0
                : Int32(clamping: Int(left.components.seconds) * 1000 + Int(left.components.attoseconds / 1_000_000_000_000_000) + 1)
            var polled = pollfd(fd: worker.answers, events: Int16(POLLIN), revents: 0)
            let ready = poll(&polled, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                discard(worker)
                throw ServerError.timedOut
            }
            break
        }
        guard let frame = WorkerFrame.read(from: worker.answers), let kind = frame.first else {
            guard let status = discard(worker) else { throw WorkerDied(how: "ended") }
            let ending = ChildEnding.decode(waitStatus: status)
            if ending.signal == nil && ending.exitStatus == ProcessSetup.outOfMemoryStatus {
                // The same page asks for the same memory every time: a permanent failure, not a retry.
                let what = request.manifest == true ? "planning" : "rendering spread \(request.spread)"
                throw ServerError(.unprocessableContent, "\(book): needs more memory than a render may use while \(what) "
                                  + "(--worker-memory \(settings.memoryBytes >> 20) MiB)")
            }
            throw WorkerDied(how: ending.signal.map { "was ended by \(ChildEnding.name($0))" } ?? "exited with status \(ending.exitStatus)",
                             signal: ending.signal)
        }
        idle.withLock { $0.append(worker) }
        if kind == 0 { return Array(frame.dropFirst()) }
        let error = try? JSONDecoder().decode(WorkerError.self, from: Data(frame.dropFirst()))
        throw ServerError(HTTPResponse.Status(code: error?.status ?? 500), error?.message ?? "\(book): the worker's answer is unreadable",
                          retryAfter: error?.retryAfter)
    }

    /// An idle worker, or a new one.
    private func take() throws -> Worker {
        if let worker = idle.withLock({ $0.popLast() }) { return worker }
        return try spawn()
    }

    /// Kills a worker that is no longer trusted and reaps it; returns its wait status.
    @discardableResult
    private func discard(_ worker: Worker) -> Int32? {
        kill(worker.pid, SIGKILL)
        close(worker.requests)
        close(worker.answers)
        var status: Int32 = 0
        while waitpid(worker.pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        replaced.add(1, ordering: .relaxed)
        return status
    }

    private func spawn() throws -> Worker {
        var toWorker: [Int32] = [0, 0], fromWorker: [Int32] = [0, 0]
        guard pipe(&toWorker) == 0 else { throw Self.startError(errno) }
        guard pipe(&fromWorker) == 0 else {
            close(toWorker[0]); close(toWorker[1])
            throw Self.startError(errno)
        }
        // The server's ends stay out of every later child.
        _ = fcntl(toWorker[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fromWorker[0], F_SETFD, FD_CLOEXEC)
        var environment = ProcessInfo.processInfo.environment
        environment[Self.variable] = String(decoding: (try? JSONEncoder().encode(settings)) ?? Data(), as: UTF8.self)
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toWorker[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromWorker[1], 1)
        // A worker answers in frames; what it might print (a crash report) is not the access log's.
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [program, "(worker)"].map { (text: String) in strdup(text) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        // The server starts workers from its runtime's threads, which keep
        // every signal blocked; a worker must not inherit that mask, or it
        // outlives an operator's SIGTERM. Its own process group keeps a
        // terminal's Ctrl-C (and any signal to the server's group) to the
        // server, which finishes the renders begun and then ends its workers.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let spawned = posix_spawn(&pid, program, &actions, &attributes, arguments, variables)
        close(toWorker[0])
        close(fromWorker[1])
        guard spawned == 0 else {
            close(toWorker[1]); close(fromWorker[0])
            throw Self.startError(spawned)
        }
        return Worker(pid: pid, requests: toWorker[1], answers: fromWorker[0])
    }

    private static func startError(_ code: Int32) -> ServerError {
        ServerError(.internalServerError, "a rendering worker could not be started: \(String(cString: strerror(code)))")
    }

    /// Ends every idle worker (the server is stopping), then removes the
    /// scratch folder with anything a killed worker left in it.
    func shutdown() {
        for worker in idle.withLock({ workers in defer { workers = [] }; return workers }) {
            close(worker.requests)  // the worker reads the end of its input and exits
            close(worker.answers)
            var status: Int32 = 0
            while waitpid(worker.pid, &status, 0) < 0 && errno == EINTR {}
        }
        guard let scratch = settings.scratch else { return }
        for name in (try? FileSystem.list(scratch)) ?? [] { FileSystem.remove(scratch + "/" + name) }
        rmdir(scratch)
    }
}

/// A worker's error answer.
struct WorkerError: Codable {
    var status: Int
    var message: String
    var retryAfter: Int?
}
