import Foundation
import Mihiraki
import MihirakiRequests

/// What the routes serve, without HTTP: the catalog, plans, spreads and
/// their caches. A spread is the same library call `render` makes
/// (``SpreadPlan/spreadFile(at:)``), so the bytes are the CLI's.
final class SpreadService: Sendable {
    /// A book opened once per version of its files: its page headers (as a
    /// plan with the server's base options) and its content fingerprint.
    struct OpenedBook: Sendable {
        var plan: SpreadPlan
        var content: String
    }

    /// A book's plan for one set of options, as the routes need it: the
    /// manifest and the number of spreads, and the plan itself when it was
    /// made in this process (a plan that decodes pages is made by a worker
    /// when there are workers, and only its manifest comes back).
    struct Planned: Sendable {
        var manifest: String
        var spreadCount: Int
        var plan: SpreadPlan?
    }

    /// What a spread request gets.
    enum Answer: Sendable {
        case notModified(etag: String)
        case spread(bytes: [UInt8], etag: String, format: SpreadFormat, cached: Bool)
    }

    let options: ServerOptions
    let catalog: BookCatalog
    let metrics = ServerMetrics()
    private let queue: RenderQueue
    private let spreads: LRUCache<ExactKey, [UInt8]>
    private let books = LRUCache<ExactKey, OpenedBook>(capacity: 256)
    private let plans = LRUCache<ExactKey, Planned>(capacity: 1024)
    private let edgePlans = LRUCache<ExactKey, SpreadPlan>(capacity: 256)
    /// The rendering workers (``ServerOptions/workerProgram``), or nil to render in this process.
    let workers: WorkerPool?

    init(options: ServerOptions) throws {
        self.options = options
        catalog = try BookCatalog(root: options.root, refreshSeconds: options.refreshSeconds)
        queue = RenderQueue(workers: options.jobs, queue: options.queue, metrics: metrics)
        spreads = LRUCache(capacity: options.cacheBytes)
        let settings = WorkerPool.Settings(root: options.root, resolvedRoot: catalog.root, maxPixels: options.maxPixels,
                                           memoryBytes: options.workerMemoryBytes)
        workers = options.workerProgram.map { WorkerPool(program: $0, settings: settings) }
    }

    /// The book for an id from a URL (still encoded).
    /// - Throws: 400 for a malformed id, 404 for one that names no book.
    func entry(encodedID: Substring) throws -> BookCatalog.Entry {
        let id = try BookID.decode(encodedID)
        guard let entry = catalog.book(id) else { throw ServerError(.notFound, "no book \(id)") }
        return entry
    }

    /// `options`, if their canvas is within `--max-size`.
    /// - Throws: 400 naming the canvas and the limit.
    func checked(_ options: LayoutOptions) throws -> LayoutOptions {
        let canvas = options.canvas, limit = self.options.maxSize
        guard canvas.width <= limit.width && canvas.height <= limit.height else {
            throw ServerError(.badRequest, "a \(canvas.width)×\(canvas.height) canvas is larger than this server allows "
                              + "(--max-size \(limit.width)x\(limit.height))")
        }
        return options
    }

    /// The book's plan for these options. One that decodes pages
    /// (``LayoutOptions/readsPixels``) is made by a rendering worker when
    /// there are workers: a page that crashes its decoder then costs the
    /// request, never the server.
    func plan(_ entry: BookCatalog.Entry, options: LayoutOptions,
              query: [(name: String, value: String)] = []) async throws -> (planned: Planned, content: String) {
        let opened = try await open(entry)
        let name = entry.id + "\n" + entry.signature + "\n" + Fingerprint.describe(options)
        let key = ExactKey(name)
        if let planned = plans.value(for: key) { return (planned, opened.content) }
        let planned: Planned
        if options.readsPixels, let workers {
            let request = WorkerRequest(path: entry.path, signature: entry.signature, query: query.map { [$0.name, $0.value] },
                                        format: options.encoding.format.rawValue, spread: 0, millisecondsLeft: 0, manifest: true)
            let deadline = self.deadline()
            let bytes = try await queue.run(key: ExactKey("plan\n" + name), deadline: deadline) {
                try workers.render(request, deadline: deadline, book: entry.id)
            }
            let manifest = String(decoding: bytes, as: UTF8.self)
            let count = (try? Manifest(json: bytes))?.spreads.count ?? 0
            planned = Planned(manifest: manifest, spreadCount: count, plan: nil)
        } else {
            // Automatic pairing reads every page's edges: once per book version,
            // on the render pool, then every pairing=auto plan reuses them.
            let base = options.pairing == .auto ? try await withEdges(entry, opened) : opened.plan
            let plan = try answering(entry) { try base.replanned(with: options) }
            planned = Planned(manifest: plan.manifest.json, spreadCount: plan.spreadCount, plan: plan)
        }
        plans.insert(planned, for: key, cost: 1)
        return (planned, opened.content)
    }

    /// Spread `number` (1-based) of a book: 304 when `ifNoneMatch` names its
    /// current entity tag, else the bytes, from the cache or rendered.
    /// - Parameter query: the request's layout parameters as sent, which a
    ///   rendering worker parses again into the same `options`.
    func spread(_ entry: BookCatalog.Entry, number: Int, options: LayoutOptions, query: [(name: String, value: String)] = [],
                ifNoneMatch: String?) async throws -> Answer {
        let (planned, content) = try await self.plan(entry, options: options, query: query)
        guard (1...max(planned.spreadCount, 1)).contains(number), planned.spreadCount > 0 else {
            throw ServerError(.notFound, "\(entry.id) has \(planned.spreadCount) spreads, not \(number)")
        }
        let etag = Fingerprint.entityTag(content: content, options: options, spread: number)
        let format = options.encoding.format
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag) { return .notModified(etag: etag) }
        let key = ExactKey(entry.id + "\n" + etag)
        if let bytes = spreads.value(for: key) { return .spread(bytes: bytes, etag: etag, format: format, cached: true) }
        let deadline = self.deadline()
        let bytes: [UInt8] = try await queue.run(key: key, deadline: deadline) {
            // Without workers the plan was made here (only a worker answers with a manifest alone).
            guard let workers = self.workers else {
                guard let plan = planned.plan else { throw ServerError(.internalServerError, "\(entry.id): no plan to render from") }
                return try self.answering(entry) { try plan.spreadFile(at: number - 1, deadline: deadline) }
            }
            let request = WorkerRequest(path: entry.path, signature: entry.signature, query: query.map { [$0.name, $0.value] },
                                        format: format.rawValue, spread: number, millisecondsLeft: 0)
            return try workers.render(request, deadline: deadline, book: entry.id)
        }
        spreads.insert(bytes, for: key, cost: bytes.count)
        return .spread(bytes: bytes, etag: etag, format: format, cached: false)
    }

    /// The `/metrics` text: the counters, and the gauges read now.
    func metricsText() -> String {
        metrics.text(cacheBytes: spreads.totalCost, books: catalog.books.count, scanSeconds: catalog.lastScanSeconds)
    }

    /// Whether an `If-None-Match` value names `etag` (a list, weak tags, or `*`).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            let tag = item.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    /// When a request accepted now must be answered (`--timeout`).
    private func deadline() -> ContinuousClock.Instant { .now + .seconds(options.timeoutSeconds) }

    /// The book's base plan with its pages' edges read (`pairing=auto`).
    /// Past the deadline the request is answered 504, but the reading runs
    /// to its end and is kept for the next request.
    private func withEdges(_ entry: BookCatalog.Entry, _ opened: OpenedBook) async throws -> SpreadPlan {
        let key = ExactKey("edges\n" + entry.id + "\n" + entry.signature)
        if let plan = edgePlans.value(for: key) { return plan }
        return try await queue.run(key: key, deadline: deadline()) {
            var auto = LayoutOptions()
            auto.maxPixels = self.options.maxPixels
            auto.pairing = .auto
            let plan = try self.answering(entry) { try opened.plan.replanned(with: auto) }
            self.edgePlans.insert(plan, for: key, cost: 1)
            return plan
        }
    }

    /// Opens a book version once: on the render pool (reading headers and
    /// checksumming pages is blocking work), shared by concurrent requests.
    /// Like reading edges, opening runs to its end past the deadline and is kept.
    private func open(_ entry: BookCatalog.Entry) async throws -> OpenedBook {
        let key = ExactKey(entry.id + "\n" + entry.signature)
        if let opened = books.value(for: key) { return opened }
        var defaults = LayoutOptions()
        defaults.maxPixels = options.maxPixels
        let base = defaults, root = catalog.root
        return try await queue.run(key: ExactKey("open\n" + entry.id + "\n" + entry.signature), deadline: deadline()) {
            let opened = try self.answering(entry) {
                let book = try Book.load(entry.path, confinedTo: root)
                return OpenedBook(plan: try SpreadPlan(book: book, options: base), content: try Fingerprint.content(of: book))
            }
            self.books.insert(opened, for: key, cost: 1)
            return opened
        }
    }

    /// Runs library work, turning its errors into answers (``serverError(_:relative:)``).
    private func answering<T>(_ entry: BookCatalog.Entry, _ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as MihirakiError {
            throw Self.serverError(error, relative: relative)
        }
    }

    /// A library error as an answer: a bad option is 400, a book or page
    /// that cannot be read 422 naming the file relative to ROOT, a render
    /// stopped at its deadline 504. A page that runs out of memory is 422
    /// too, naming the limit (`memoryLimit`, a worker's `--worker-memory`):
    /// the same page asks for the same memory every time, so it is a
    /// permanent failure, never an overload to retry (503 is a full queue
    /// only).
    static func serverError(_ error: MihirakiError, relative: (String) -> String, memoryLimit: Int? = nil) -> ServerError {
        let text = relative(error.spelled(.query).description)
        switch error.code {
        case .usage: return ServerError(.badRequest, text)
        case .outOfMemory:
            let limit = memoryLimit.map { "more than a render may use (--worker-memory \($0 >> 20) MiB)" }
                ?? "more than this machine gave the render"
            return ServerError(.unprocessableContent, text + ": " + limit)
        case .timedOut: return ServerError.timedOut
        default: return ServerError(.unprocessableContent, text)
        }
    }

    /// A message with ROOT taken out of every path in it.
    func relative(_ text: String) -> String { Self.relative(text, root: catalog.root, given: options.root) }

    /// `text` with `root` (resolved) and `given` (ROOT as given) taken out of every path in it.
    static func relative(_ text: String, root: String, given: String) -> String {
        var result = text.replacingOccurrences(of: root + "/", with: "")
        let given = given.hasSuffix("/") ? given : given + "/"
        result = result.replacingOccurrences(of: given, with: "")
        return result.replacingOccurrences(of: root, with: ".")
    }
}
