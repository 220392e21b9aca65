import HTTPTypes

/// A request the server answers with an error: the status and a one-line
/// message that names files only relative to ROOT.
package struct ServerError: Error {
    package var status: HTTPResponse.Status
    package var message: String
    /// Seconds for `Retry-After` (503).
    package var retryAfter: Int?

    package init(_ status: HTTPResponse.Status, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The render queue is full.
    package static let busy = ServerError(.serviceUnavailable, "too many renders queued; try again shortly", retryAfter: 1)

    /// A render ran past `--timeout`.
    package static let timedOut = ServerError(.gatewayTimeout, "the render took longer than this server allows (--timeout)")
}
