import Mihiraki
import MihirakiRequests

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
    /// The largest canvas a request may ask for (`--max-size`): every new
    /// size costs a render and a cache entry, and the canvas bounds a render's memory.
    public var maxSize = (width: 4096, height: 4096)
    /// How long a request may wait for its render (`--timeout`), queued or
    /// running: past it the answer is 504 and the render stops at its next
    /// page or decoded row, freeing its worker.
    public var timeoutSeconds = 30.0
    /// How old the list of books may get before the tree is scanned again.
    public var refreshSeconds = 2.0
    /// A connection that sends nothing for this long is closed (slow clients).
    public var idleTimeoutSeconds = 30
    /// Where the access log's lines go (one JSON object per request), or
    /// nowhere when `nil`. `mihiraki serve` writes them to stderr unless `--quiet`.
    public var accessLog: (@Sendable (String) -> Void)? = nil
    /// Signed URLs only (`--sign-key`, `--sign-salt`): every request but
    /// `/healthz` and `/metrics` must carry a valid signature. `nil`: off.
    public var signer: URLSigner? = nil
    /// The program that renders spreads in worker processes (the `mihiraki`
    /// executable), one worker per job; nil renders them in this process.
    public var workerProgram: String? = nil
    /// The address space each worker may use, in bytes (`--worker-memory`).
    public var workerMemoryBytes = 1 << 30
    /// The book the viewer opens when its address names none (`--open`, an
    /// id as `/api/books` lists it); `nil` for the first listed.
    public var openBook: String? = nil

    /// An access log on standard error: each line written whole, in batches a few milliseconds apart.
    public static func standardErrorLog() -> @Sendable (String) -> Void { AccessLog.standardError() }

    /// Options for serving `root`, every other value at its default.
    public init(root: String) { self.root = root }

    /// Checks the values; ``SpreadServer/run(_:listening:)`` does before it
    /// binds, so a program gets the command line's guarantees.
    /// - Throws: ``MihirakiError`` with code `.usage` naming the option.
    public func validate() throws {
        func check(_ ok: Bool, _ message: String) throws { if !ok { throw MihirakiError(.usage, message) } }
        try check((1...256).contains(jobs), "--jobs must be between 1 and 256")
        try check((0...65535).contains(port), "--port must be between 0 and 65535")
        try check(queue >= 0, "--queue must be at least 0")
        try check(cacheBytes >= 0 && cacheBytes <= 1 << 40, "--cache-mb must be between 0 and 1048576")
        try check(maxPixels >= 1, "--max-pixels must be at least 1")
        try check(maxSize.width >= 1 && maxSize.height >= 1, "--max-size must be at least 1x1")
        try check(idleTimeoutSeconds >= 1, "--idle-timeout must be at least 1")
        try check(refreshSeconds >= 0 && refreshSeconds.isFinite, "--refresh must be at least 0")
        try check(timeoutSeconds > 0 && timeoutSeconds <= 86400, "--timeout must be more than 0 and at most 86400")
    }
}
