import HTTPTypes

/// A request the server answers with an error: the status and a one-line
/// message that names files only relative to ROOT.
struct ServerError: Error {
    var status: HTTPResponse.Status
    var message: String
    /// Seconds for `Retry-After` (503).
    var retryAfter: Int?

    init(_ status: HTTPResponse.Status, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The render queue is full.
    static let busy = ServerError(.serviceUnavailable, "too many renders queued; try again shortly", retryAfter: 1)
}
