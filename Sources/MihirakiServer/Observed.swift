import Foundation
import HTTPTypes
import Hummingbird
import Mihiraki
import MihirakiRequests
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The outermost responder: every request, whatever answers it, is counted
/// in the metrics and, unless `--quiet`, written to the access log as one
/// JSON line: time (UTC, milliseconds), method, path (with its query, as
/// sent), status, body bytes, duration in milliseconds and, for spreads,
/// whether the cache answered.
struct Observed<Inner: HTTPResponder>: HTTPResponder where Inner.Context == BasicRequestContext {
    let inner: Inner
    let metrics: ServerMetrics
    let log: (@Sendable (String) -> Void)?

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await inner.respond(to: request, context: context)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let cache = response.headers[.xCache]
        // The path as the log and the metrics name it: without its signature.
        let target = request.uri.description[...]
        let unsigned = String(URLSigner.split(target)?.rest ?? target)
        metrics.request(route: ServerMetrics.route(of: unsigned.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]),
                        status: response.status.code, seconds: seconds)
        if let cache { metrics.cache(hit: cache == "HIT") }
        if let log {
            log(AccessLog.line(method: request.method.rawValue, path: unsigned, status: response.status.code,
                               bytes: response.body.contentLength ?? 0, seconds: seconds,
                               cache: cache.map { $0 == "HIT" ? "hit" : "miss" }))
        }
        return response
    }
}

/// The access log's lines: one JSON object per request, its keys sorted.
///
/// A line is written by hand (no Foundation formatting, no dictionary) into
/// a shared buffer, and a thread of its own writes the buffer to standard
/// error every few milliseconds: a request's cost is building its line and
/// appending it under a lock held for that copy only, never a system call.
enum AccessLog {
    /// The line for one request: `{"bytes":…,"cache":…,"duration_ms":…,"method":…,"path":…,"status":…,"time":…}`.
    static func line(method: String, path: String, status: Int, bytes: Int, seconds: Double, cache: String?,
                     now: timespec = AccessLog.now()) -> String {
        var out = "{\"bytes\":\(bytes),"
        if let cache { out += "\"cache\":\"\(cache)\"," }
        let micros = Int((seconds * 1e6).rounded())
        out += "\"duration_ms\":\(micros / 1000).\(digits(micros % 1000, 3)),\"method\":"
        out += JSONWriter.quoted(method) + ",\"path\":" + JSONWriter.quoted(path)
        out += ",\"status\":\(status),\"time\":\"" + timestamp(now) + "\"}"
        return out
    }

    static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    /// `now` as `2026-11-23T10:15:30.123Z`.
    static func timestamp(_ now: timespec = AccessLog.now()) -> String {
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return digits(Int(parts.tm_year) + 1900, 4) + "-" + digits(Int(parts.tm_mon) + 1, 2) + "-" + digits(Int(parts.tm_mday), 2)
            + "T" + digits(Int(parts.tm_hour), 2) + ":" + digits(Int(parts.tm_min), 2) + ":" + digits(Int(parts.tm_sec), 2)
            + "." + digits(Int(now.tv_nsec / 1_000_000), 3) + "Z"
    }

    /// `value` in decimal with at least `width` digits.
    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// Writes access-log lines to standard error, whole, in batches.
    static func standardError() -> @Sendable (String) -> Void {
        let writer = BatchWriter.standardError
        return { line in writer.append(line) }
    }

    /// Writes what is buffered now (the server calls it as it stops).
    static func flush() { BatchWriter.standardError.flush() }

    /// Lines gathered in memory and written to a descriptor by a thread of
    /// its own every 20 ms, or at once past 64 KiB.
    final class BatchWriter: Sendable {
        static let standardError = BatchWriter(fd: 2)

        private let fd: Int32
        private let pending = Mutex<[UInt8]>([])
        private let wake = DispatchSemaphore(value: 0)
        private let writing = Mutex<Void>(())

        init(fd: Int32) {
            self.fd = fd
            let thread = Thread { [self] in
                while true {
                    _ = wake.wait(timeout: .now() + .milliseconds(20))
                    flush()
                }
            }
            thread.name = "mihiraki.access-log"
            thread.start()
        }

        func append(_ line: String) {
            let size = pending.withLock { buffer in
                buffer.append(contentsOf: line.utf8)
                buffer.append(10)
                return buffer.count
            }
            if size > 64 << 10 { wake.signal() }
        }

        /// Writes every line appended so far, in order.
        func flush() {
            writing.withLock { _ in
                let bytes = pending.withLock { buffer in
                    defer { buffer.removeAll(keepingCapacity: true) }
                    return buffer
                }
                guard !bytes.isEmpty else { return }
                bytes.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { break }
                        offset += n
                    }
                }
            }
        }
    }
}

/// Only GET and HEAD: any other method is 405 with `Allow: GET, HEAD` and a
/// JSON error, before a route is looked for.
struct OnlyGetAndHead<Inner: HTTPResponder>: HTTPResponder where Inner.Context == BasicRequestContext {
    let inner: Inner

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            var response = Routes.error(ResponseTracker.methodNotAllowed(request.method.rawValue),
                                        status: .methodNotAllowed)
            response.headers[.allow] = "GET, HEAD"
            return response
        }
        return try await inner.respond(to: request, context: context)
    }
}

extension HTTPField.Name {
    /// `HIT` or `MISS` on a spread: whether the cache answered it.
    static let xCache = Self("X-Cache")!
}

/// With signing on (`--sign-key`), every request but `/healthz` and
/// `/metrics` must come as `/s/{signature}/…` with a signature of the rest
/// (URLSigner): a good one is answered as the unsigned path, anything else
/// is 403 with a JSON error. The viewer is not served then (it builds URLs in
/// the browser, where the key must not go).
struct Signed<Inner: HTTPResponder>: HTTPResponder where Inner.Context == BasicRequestContext {
    let inner: Inner
    let signer: URLSigner?

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard let signer else { return try await inner.respond(to: request, context: context) }
        let target = request.head.path ?? ""
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if path == "/healthz" || path == "/metrics" { return try await inner.respond(to: request, context: context) }
        guard let (signature, rest) = URLSigner.split(target[...]) else {
            return Self.refused("this server answers signed URLs only: /s/{signature}/api/…")
        }
        guard signer.verifies(signature, rest) else { return Self.refused("the URL's signature is not valid") }
        let restPath = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard restPath.hasPrefix("/api/") else { return Self.refused("signed URLs reach /api/… only") }
        var head = request.head
        head.path = String(rest)
        return try await inner.respond(to: Request(head: head, body: request.body), context: context)
    }

    static func refused(_ message: String) -> Response { Routes.error(message, status: .forbidden) }
}
