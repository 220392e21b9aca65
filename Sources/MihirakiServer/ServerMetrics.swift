import Foundation
import Synchronization

/// What `GET /metrics` reports, in Prometheus' text format (0.0.4), with
/// names like imgproxy's under a `mihiraki_` prefix: requests by route and
/// status, a request-duration histogram, renders in flight and waiting,
/// requests refused as busy, cache hits, misses and bytes, books known and
/// the last catalog scan's duration. Counters only grow; gauges are read
/// when scraped.
final class ServerMetrics: Sendable {
    /// Upper bounds of the duration histogram's buckets, in seconds.
    static let bounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var requests: [String: Int] = [:]   // "route\u{0}status"
        var buckets = [Int](repeating: 0, count: ServerMetrics.bounds.count)
        var count = 0
        var sum = 0.0
        var rendersInFlight = 0
        var rendersWaiting = 0
        var busy = 0
        var cacheHits = 0
        var cacheMisses = 0
    }
    private let state = Mutex(State())

    /// One answered request.
    func request(route: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests[route + "\u{0}" + String(status), default: 0] += 1
            state.count += 1
            state.sum += seconds
            if let bucket = Self.bounds.firstIndex(where: { seconds <= $0 }) { state.buckets[bucket] += 1 }
        }
    }

    /// The render queue's state: renders running, accepted and waiting for a worker.
    func renders(running: Int, waiting: Int) {
        state.withLock { $0.rendersInFlight = running; $0.rendersWaiting = waiting }
    }

    /// A request refused because the queue was full (503).
    func refusedBusy() { state.withLock { $0.busy += 1 } }

    /// A spread asked for: found in the cache, or rendered.
    func cache(hit: Bool) { state.withLock { if hit { $0.cacheHits += 1 } else { $0.cacheMisses += 1 } } }

    /// The text a scrape gets.
    func text(cacheBytes: Int, books: Int, scanSeconds: Double) -> String {
        let s = state.withLock { $0 }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("mihiraki_requests_total", "counter", "Requests answered, by route and status.")
        for key in s.requests.keys.sorted() {
            let parts = key.split(separator: "\u{0}", maxSplits: 1).map(String.init)
            out += "mihiraki_requests_total{route=\"\(Self.escaped(parts[0]))\",status=\"\(parts[1])\"} \(s.requests[key]!)\n"
        }
        family("mihiraki_request_duration_seconds", "histogram", "Time from a request's arrival to its answer.")
        var cumulative = 0
        for (bound, count) in zip(Self.bounds, s.buckets) {
            cumulative += count
            out += "mihiraki_request_duration_seconds_bucket{le=\"\(Self.number(bound))\"} \(cumulative)\n"
        }
        out += "mihiraki_request_duration_seconds_bucket{le=\"+Inf\"} \(s.count)\n"
        out += "mihiraki_request_duration_seconds_sum \(Self.number(s.sum))\n"
        out += "mihiraki_request_duration_seconds_count \(s.count)\n"
        func single(_ name: String, _ type: String, _ help: String, _ value: String) {
            family(name, type, help)
            out += "\(name) \(value)\n"
        }
        single("mihiraki_renders_in_flight", "gauge", "Renders running now.", "\(s.rendersInFlight)")
        single("mihiraki_render_queue_depth", "gauge", "Renders accepted and waiting for a worker.", "\(s.rendersWaiting)")
        single("mihiraki_requests_busy_total", "counter", "Requests refused with 503 because the render queue was full.",
               "\(s.busy)")
        single("mihiraki_cache_hits_total", "counter", "Spreads answered from the cache.", "\(s.cacheHits)")
        single("mihiraki_cache_misses_total", "counter", "Spreads rendered because the cache did not hold them.",
               "\(s.cacheMisses)")
        single("mihiraki_cache_bytes", "gauge", "Bytes of encoded spreads in the cache.", "\(cacheBytes)")
        single("mihiraki_books", "gauge", "Books found under ROOT by the last scan.", "\(books)")
        single("mihiraki_catalog_scan_duration_seconds", "gauge", "How long the last scan of ROOT took.",
               Self.number(scanSeconds))
        return out
    }

    /// A label value with `\`, `"` and newlines escaped, as the format asks.
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A number as Prometheus reads it: no exponent for the values used here.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.6f", value)
    }

    /// The route a path belongs to, as the metrics and the access log name it:
    /// the route's pattern, never the book's id.
    static func route(of path: Substring) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch parts.count {
        case 1 where ["", "viewer.js", "viewer.css", "healthz", "metrics"].contains(parts.first!):
            return "/" + parts.first!
        case 2 where parts.first == "api" && parts.last == "books":
            return "/api/books"
        case 4 where parts.first == "api" && parts[parts.startIndex + 1] == "books" && parts.last == "manifest":
            return "/api/books/:id/manifest"
        case 5 where parts.first == "api" && parts[parts.startIndex + 1] == "books" && parts[parts.startIndex + 3] == "spreads":
            return "/api/books/:id/spreads/:file"
        default:
            return "other"
        }
    }
}
