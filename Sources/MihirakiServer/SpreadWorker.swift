import Foundation
import Mihiraki
import MihirakiRequests
#if canImport(Glibc)
import Glibc
#endif

/// A rendering worker's side of ``WorkerPool``: reads requests on standard
/// input and answers each on standard output with the spread file or an
/// error, until its input ends. It keeps the books it opened, the edges it
/// read and the plans it made, as the server does, so a book's second spread
/// costs no more than in one process.
package enum SpreadWorker {
    /// The worker's loop. The caller (the `mihiraki` program) has confined
    /// the process already.
    package static func serve(_ settings: WorkerPool.Settings) {
        endWithServer()
        let worker = Worker(settings: settings)
        while let frame = WorkerFrame.read(from: 0) {
            let answer: [UInt8]
            do {
                let request = try JSONDecoder().decode(WorkerRequest.self, from: Data(frame))
                answer = [0] + (try worker.render(request))
            } catch let error as ServerError {
                answer = [1] + encoded(WorkerError(status: error.status.code, message: error.message, retryAfter: error.retryAfter))
            } catch {
                answer = [1] + encoded(WorkerError(status: 500, message: "the worker could not read its request", retryAfter: nil))
            }
            guard WorkerFrame.write(answer, to: 1) else { return }
        }
    }

    /// Ends the worker as soon as its requests' pipe has no writer: the
    /// server holds the only writing end, so the pipe hangs up when the
    /// server ends, however it ends (`kill -9`, the out-of-memory killer)
    /// and whatever the worker is doing. Without it a worker would finish
    /// the render under way for no one, or sleep on forever in one that
    /// hangs; the loop only reads the end of its input between requests.
    /// (The kernel's parent-death signal would not do: it follows the
    /// thread that started the worker, one of the server's runtime threads,
    /// which may end while the server lives.)
    private static func endWithServer() {
        Thread.detachNewThread {
            // No events asked: poll returns only on a hang-up or an error.
            var pipe = pollfd(fd: 0, events: 0, revents: 0)
            while true {
                let ready = poll(&pipe, 1, -1)
                if ready > 0 { _exit(0) }
                if ready < 0 && errno != EINTR { return }
            }
        }
    }

    private static func encoded(_ error: WorkerError) -> [UInt8] { Array((try? JSONEncoder().encode(error)) ?? Data()) }

    /// The worker's books and plans.
    final class Worker {
        let settings: WorkerPool.Settings
        /// The newest plan made of each book version: its facts hold all
        /// that was measured of the book so far (headers, edges, cuts), so a
        /// plan with other options measures only what they change.
        private var books: [String: SpreadPlan] = [:]
        private var plans: [String: SpreadPlan] = [:]

        init(settings: WorkerPool.Settings) { self.settings = settings }

        func render(_ request: WorkerRequest) throws -> [UInt8] {
            let deadline = ContinuousClock.now + .milliseconds(request.millisecondsLeft)
            let format = SpreadFormat(rawValue: request.format)
            let pairs = request.query.compactMap { $0.count == 2 ? (name: $0[0], value: $0[1]) : nil }
            let options = try SpreadQuery.options(pairs, format: format, maxPixels: settings.maxPixels)
            let version = request.path + "\n" + request.signature
            let key = version + "\n" + Fingerprint.describe(options)
            let plan: SpreadPlan
            if let known = plans[key] {
                plan = known
            } else {
                plan = try answering { try newest(version, path: request.path).replanned(with: options) }
                if plans.count > 256 { plans.removeAll() }
                plans[key] = plan
                books[version] = plan
            }
            if request.manifest == true { return Array(plan.manifest.json.utf8) }
            return try answering { try plan.spreadFile(at: request.spread - 1, deadline: deadline) }
        }

        /// The newest plan of the book, or its plan with the server's base options, its headers read.
        private func newest(_ version: String, path: String) throws -> SpreadPlan {
            if let plan = books[version] { return plan }
            var options = LayoutOptions()
            options.maxPixels = settings.maxPixels
            let plan = try SpreadPlan(book: try Book.load(path, confinedTo: settings.resolvedRoot), options: options)
            if books.count > 64 { books.removeAll() }
            books[version] = plan
            return plan
        }

        private func answering<T>(_ work: () throws -> T) throws -> T {
            do {
                return try work()
            } catch let error as MihirakiError {
                throw SpreadService.serverError(error, relative: { SpreadService.relative($0, root: self.settings.resolvedRoot,
                                                                                       given: self.settings.root) },
                                                memoryLimit: settings.memoryBytes > 0 ? settings.memoryBytes : nil)
            }
        }
    }
}
