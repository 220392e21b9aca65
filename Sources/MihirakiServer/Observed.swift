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

extension HTTPField.Name {
    /// `HIT` or `MISS` on a spread: whether the cache answered it.
    static let xCache = Self("X-Cache")!
}
