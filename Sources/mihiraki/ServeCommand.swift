import ArgumentParser
import Foundation
import Mihiraki
import MihirakiServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the books under ROOT over HTTP: spreads in any size and format, manifests, and a viewer.",
        discussion: """
        Prints one line with the address once it listens; stops on SIGTERM or SIGINT after \
        answering the requests in flight. Routes: /, /healthz, /metrics (Prometheus), /api/books (?offset=&limit=), \
        /api/books/ID/manifest, /api/books/ID/spreads/N.png (or .jpg, .webp, .avif) with the layout options \
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

    @Flag(help: "No access log (by default one JSON line per request on stderr).")
    var quiet = false

    func run() async throws {
        var options = ServerOptions(root: root)
        options.host = host
        options.port = port
        options.jobs = jobs
        options.queue = queue ?? 4 * jobs
        options.cacheBytes = cacheMB.multipliedReportingOverflow(by: 1 << 20).overflow ? -1 : cacheMB << 20
        options.maxPixels = maxPixels
        options.idleTimeoutSeconds = idleTimeout
        options.refreshSeconds = refresh
        if !quiet { options.accessLog = ServerOptions.standardErrorLog() }
        let root = self.root
        try await SpreadServer.run(options) { host, port in
            FileHandle.standardOutput.write(Data("mihiraki: serving \(root) at http://\(host):\(port)/\n".utf8))
        }
    }
}
