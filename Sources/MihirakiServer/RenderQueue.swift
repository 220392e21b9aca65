import Dispatch
import MihirakiRequests
import Synchronization

/// Where renders run: at most `workers` at once on threads of their own (a
/// render blocks on decoding and must not hold Swift's cooperative threads),
/// at most `limit` accepted at a time — past that a request is refused with
/// 503 at once instead of waiting in unbounded memory — and one render per
/// key: identical requests that arrive together share it.
///
/// With a deadline (`--timeout`, counted from when the request is accepted,
/// waiting included), a request is answered 504 the moment it passes; a
/// render that has not started by then never starts, and one under way
/// is handed the deadline to stop itself at its next check.
actor RenderQueue {
    private let workers: Int
    private let limit: Int
    private var running = 0
    /// Accepted and not finished: running, waiting for a worker, or shared.
    private var accepted = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var shared: [ExactKey: Task<any Sendable, any Error>] = [:]
    private let threads = DispatchQueue(label: "mihiraki.render", attributes: .concurrent)
    private let metrics: ServerMetrics?

    init(workers: Int, queue: Int, metrics: ServerMetrics? = nil) {
        self.workers = max(workers, 1)
        self.limit = max(workers, 1) + max(queue, 0)
        self.metrics = metrics
    }

    /// Tells the metrics how many renders run and wait.
    private func report() { metrics?.renders(running: running, waiting: waiting.count) }

    /// Runs `work` (or joins the same key's render already under way).
    /// - Parameters:
    ///   - deadline: when the request is answered 504 if `work` has not
    ///     finished; `work` is given it to stop itself.
    /// - Throws: ``ServerError/busy`` when the queue is full; the deadline's
    ///   504; `work`'s error.
    func run<T: Sendable>(key: ExactKey, deadline: ContinuousClock.Instant? = nil,
                          _ work: @escaping @Sendable () throws -> T) async throws -> T {
        if let task = shared[key] { return try await Self.value(of: task, until: deadline) }
        guard accepted < limit else {
            metrics?.refusedBusy()
            throw ServerError.busy
        }
        accepted += 1
        let task = Task<any Sendable, any Error> { try await self.execute(deadline: deadline, work) }
        shared[key] = task
        defer {
            shared[key] = nil
            accepted -= 1
        }
        return try await Self.value(of: task, until: deadline)
    }

    /// The task's value, or a 504 once `deadline` has passed, whichever
    /// comes first (the task goes on until its own check stops it).
    private static func value<T>(of task: Task<any Sendable, any Error>, until deadline: ContinuousClock.Instant?) async throws -> T {
        let result: any Sendable
        if let deadline {
            let answer = FirstAnswer()
            result = try await withCheckedThrowingContinuation { continuation in
                answer.wait(continuation)
                // A cancelled timer must not answer: it is cancelled because
                // the result came, and would race it with a 504.
                let timer = Task {
                    do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }
                    answer.give(.failure(ServerError.timedOut))
                }
                Task {
                    let result = await task.result
                    answer.give(result)
                    timer.cancel()
                }
            }
        } else {
            result = try await task.value
        }
        guard let value = result as? T else { preconditionFailure("one key, one result type") }
        return value
    }

    private func execute<T: Sendable>(deadline: ContinuousClock.Instant?,
                                      _ work: @escaping @Sendable () throws -> T) async throws -> T {
        if running < workers {
            running += 1
            report()
        } else {
            await withCheckedContinuation { waiting.append($0); report() }  // the finishing render hands over its slot
        }
        defer {
            if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
            report()
        }
        if let deadline, ContinuousClock.now >= deadline { throw ServerError.timedOut }  // answered already: never start
        return try await withCheckedThrowingContinuation { continuation in
            threads.async { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// The first of two results to arrive resumes a waiting continuation; the
/// second is dropped.
private final class FirstAnswer: Sendable {
    private let slot = Mutex<CheckedContinuation<any Sendable, any Error>?>(nil)

    func wait(_ continuation: CheckedContinuation<any Sendable, any Error>) { slot.withLock { $0 = continuation } }

    func give(_ result: Result<any Sendable, any Error>) { slot.withLock { $0.take() }?.resume(with: result) }
}
