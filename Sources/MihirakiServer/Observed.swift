import Foundation
import HTTPTypes
import Hummingbird
import MihirakiRequests
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
            var line: [String: Any] = [
                "time": AccessLog.timestamp(), "method": request.method.rawValue, "path": unsigned,
                "status": response.status.code, "bytes": response.body.contentLength ?? 0,
                "duration_ms": (seconds * 1e6).rounded() / 1e3,
            ]
            if let cache { line["cache"] = cache == "HIT" ? "hit" : "miss" }
            if let data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes]) {
                log(String(decoding: data, as: UTF8.self))
            }
        }
        return response
    }
}

/// The access log's lines: one JSON object per request.
enum AccessLog {
    /// Now, as `2026-11-23T10:15:30.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(now.tv_nsec / 1_000_000))
    }

    /// Writes access-log lines to stderr, whole, one at a time.
    static func standardError() -> @Sendable (String) -> Void {
        let lock = NSLock()
        return { line in
            let bytes = Array((line + "\n").utf8)
            lock.lock()
            defer { lock.unlock() }
            var written = 0
            while written < bytes.count {
                let n = bytes[written...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                written += n
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
            var response = Routes.error("\(request.method.rawValue) is not allowed: Mihiraki answers GET and HEAD",
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
