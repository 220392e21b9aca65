import ArgumentParser
import Foundation
import Mihiraki
import MihirakiProcess
import MihirakiRequests
import MihirakiServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the books under ROOT over HTTP: spreads in any size and format, manifests, and a viewer.",
        discussion: """
        Prints one line with the address once it listens; stops on SIGTERM or SIGINT after \
        answering the requests in flight. Routes: /, /healthz, /metrics (Prometheus), /api/books (?offset=&limit=), \
        /api/books/ID/manifest, /api/books/ID/spreads/N.png (or \(HelpNames.otherSpreadExtensions)) with the layout options \
        as query parameters. Each request is one JSON line on stderr unless --quiet.
        """)

    @Argument(help: "The folder of books (folders of page images and archives, found recursively).")
    var root: String

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(help: "Renders at once (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Renders waiting beyond the running ones before answering 503 (default: 4 per job).", valueName: "N"))
    var queue: Int?

    @Option(name: .customLong("cache-mb"), help: ArgumentHelp("Memory for rendered spreads, in MiB.", valueName: "MB"))
    var cacheMB = 256

    @Option(name: .customLong("max-pixels"), help: ArgumentHelp("Refuse pages and canvases with more pixels than this.", valueName: "N"))
    var maxPixels: Int = LayoutOptions().maxPixels

    @Option(help: ArgumentHelp("Scan ROOT for new and changed books when the list is older than this.", valueName: "S"))
    var refresh = 2.0

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Close a connection silent for this many seconds.", valueName: "S"))
    var idleTimeout = 30

    @Option(name: .customLong("max-size"), help: ArgumentHelp("The largest canvas a request may ask for.", valueName: "WxH"))
    var maxSize = "4096x4096"

    @Option(help: ArgumentHelp("Answer 504 to a request whose render takes longer than this, waiting included, and stop the render.",
                               valueName: "S"))
    var timeout = 30.0

    @Option(help: ArgumentHelp("Worker processes that render spreads, one render each at a time (default: --jobs); 0 renders in the server's own process.",
                               valueName: "N"))
    var workers: Int?

    @Option(name: .customLong("worker-memory"), help: ArgumentHelp("Address space each worker may use, in MiB; a worker that needs more fails its request.",
                                                                valueName: "MB"))
    var workerMemory = 1024

    @Option(help: ArgumentHelp("The book the viewer opens when its address names none, as /api/books lists its id (default: the first listed).",
                               valueName: "BOOK"))
    var open: String?

    @Flag(help: "No access log (by default one JSON line per request on stderr).")
    var quiet = false

    @OptionGroup var signing: SigningFlags

    func run() async throws {
        ProcessSetup.raiseOpenFileLimit()
        var options = ServerOptions(root: root)
        options.host = host
        options.port = port
        let jobs = workers.map { $0 > 0 ? $0 : self.jobs } ?? self.jobs
        guard workers.map({ $0 >= 0 }) ?? true else { throw ValidationError("--workers must be at least 0") }
        guard workerMemory >= 64 && workerMemory <= 1 << 20 else {
            throw ValidationError("--worker-memory must be between 64 and 1048576 MiB")
        }
        options.jobs = jobs
        options.queue = queue ?? 4 * jobs
        if workers != 0 {
            options.workerProgram = WorkerConfinement.program
            options.workerMemoryBytes = workerMemory << 20
            if let missing = WorkerConfinement.missingProtections() {
                FileHandle.standardError.write(Data("mihiraki: warning: \(missing)\n".utf8))
            }
        }
        options.cacheBytes = cacheMB.multipliedReportingOverflow(by: 1 << 20).overflow ? -1 : cacheMB << 20
        options.maxPixels = maxPixels
        let sides = maxSize.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard sides.count == 2, let width = sides[0], let height = sides[1], width >= 1, height >= 1 else {
            throw ValidationError("--max-size takes WxH, two whole numbers, such as 4096x4096")
        }
        options.maxSize = (width, height)
        options.idleTimeoutSeconds = idleTimeout
        options.refreshSeconds = refresh
        options.timeoutSeconds = timeout
        if !quiet { options.accessLog = ServerOptions.standardErrorLog() }
        options.signer = try signing.signer()
        options.openBook = open
        let root = self.root
        try await SpreadServer.run(options) { host, port in
            FileHandle.standardOutput.write(Data("mihiraki: serving \(root) at http://\(host):\(port)/\n".utf8))
        }
    }
}

/// `--sign-key` and `--sign-salt` (or `MIHIRAKI_SIGN_KEY` and `MIHIRAKI_SIGN_SALT`):
/// comma-separated hex pairs, imgproxy's scheme; several pairs rotate keys.
struct SigningFlags: ParsableArguments {
    @Option(name: .customLong("sign-key"), help: ArgumentHelp(
        "Answer signed URLs only (/s/SIGNATURE/api/...): hex keys, comma-separated to rotate (or MIHIRAKI_SIGN_KEY).",
        valueName: "HEX"))
    var key: String?

    @Option(name: .customLong("sign-salt"), help: ArgumentHelp(
        "The salt of each key, hex, in the same order (or MIHIRAKI_SIGN_SALT).", valueName: "HEX"))
    var salt: String?

    /// The signer the flags or the environment ask for; nil when neither names a key.
    func signer() throws -> URLSigner? {
        let environment = ProcessInfo.processInfo.environment
        guard let key = key ?? environment["MIHIRAKI_SIGN_KEY"] else {
            if salt != nil { throw ValidationError("--sign-salt needs --sign-key") }
            return nil
        }
        guard let salt = salt ?? environment["MIHIRAKI_SIGN_SALT"] else {
            throw ValidationError("--sign-key needs --sign-salt (or MIHIRAKI_SIGN_SALT)")
        }
        do {
            return try URLSigner(hexKeys: key, hexSalts: salt)
        } catch let error as ServerError {
            throw ValidationError(error.message)
        }
    }
}

struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Print a URL of `mihiraki serve --sign-key` signed with the first key: /s/SIGNATURE put before its path.",
        discussion: "The URL may be whole (http://host:port/api/...) or a path with its query (/api/books/...). The query is signed exactly as written.")

    @Argument(help: "The URL or path to sign.")
    var url: String

    @OptionGroup var signing: SigningFlags

    func run() throws {
        guard let signer = try signing.signer() else { throw ValidationError("sign needs --sign-key and --sign-salt") }
        // The path starts at the first "/" after the scheme's "//host".
        var origin = "", rest = url[...]
        if let scheme = url.range(of: "://") {
            let afterHost = url[scheme.upperBound...].firstIndex(of: "/") ?? url.endIndex
            origin = String(url[..<afterHost])
            rest = url[afterHost...]
        }
        guard rest.hasPrefix("/") else { throw ValidationError("\(url): not a URL or a path starting with /") }
        print(origin + signer.signed(String(rest)))
    }
}
