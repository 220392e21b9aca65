import Mihiraki

/// How `mihiraki serve` runs: where the books are, where it listens, and the
/// bounds that keep it safe under load.
public struct ServerOptions: Sendable {
    /// The folder whose books are served; nothing outside it is ever read.
    public var root: String
    /// The address to bind; loopback unless asked otherwise.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one (printed when the server starts).
    public var port = 8080
    /// Renders running at once.
    public var jobs = 2
    /// Renders accepted beyond the running ones before answering 503.
    public var queue = 8
    /// Bytes of encoded spreads kept in memory.
    public var cacheBytes = 256 << 20
    /// The page and canvas pixel limit (`--max-pixels`).
    public var maxPixels = LayoutOptions().maxPixels
    /// How old the list of books may get before the tree is scanned again.
    public var refreshSeconds = 2.0
    /// A connection that sends nothing for this long is closed (slow clients).
    public var idleTimeoutSeconds = 30

    /// Options for serving `root`, every other value at its default.
    public init(root: String) { self.root = root }
}
