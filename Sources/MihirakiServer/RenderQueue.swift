import Dispatch
import MihirakiRequests

/// Where renders run: at most `workers` at once on threads of their own (a
/// render blocks on decoding and must not hold Swift's cooperative threads),
/// at most `limit` accepted at a time — past that a request is refused with
/// 503 at once instead of waiting in unbounded memory — and one render per
/// key: identical requests that arrive together share it.
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
    /// - Throws: ``ServerError/busy`` when the queue is full; `work`'s error.
    func run<T: Sendable>(key: ExactKey, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        if let task = shared[key] { return try await Self.value(of: task) }
        guard accepted < limit else {
            metrics?.refusedBusy()
            throw ServerError.busy
        }
        accepted += 1
        let task = Task<any Sendable, any Error> { try await self.execute(work) }
        shared[key] = task
        defer {
            shared[key] = nil
            accepted -= 1
        }
        return try await Self.value(of: task)
    }

    private static func value<T>(of task: Task<any Sendable, any Error>) async throws -> T {
        guard let value = try await task.value as? T else { preconditionFailure("one key, one result type") }
        return value
    }

    private func execute<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
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
        return try await withCheckedThrowingContinuation { continuation in
            threads.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
