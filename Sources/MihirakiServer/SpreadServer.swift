import Hummingbird
import Mihiraki
import Logging
import ServiceLifecycle

/// `mihiraki serve`: the books under a folder, over HTTP (SPEC §7).
public enum SpreadServer {
    /// Serves until SIGTERM or SIGINT, then finishes the requests in flight
    /// and returns.
    /// - Parameter listening: called once the socket is bound, with its address and port.
    /// - Throws: ``MihirakiError``: `.usage` for invalid options, `.badBook`
    ///   when ROOT is not a folder; the socket's error when it cannot bind.
    public static func run(_ options: ServerOptions, listening: @escaping @Sendable (String, Int) -> Void) async throws {
        var logger = Logger(label: "mihiraki.serve")
        logger.logLevel = .warning
        let app = try application(options, logger: logger, listening: listening)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint],
                                                      logger: logger))
        try await group.run()
    }

    /// The HTTP application `run` serves: routes, HEAD, limits. Tests drive
    /// it in-process (HummingbirdTesting), with no socket.
    /// - Throws: ``MihirakiError`` as ``run(_:listening:)``.
    package static func application(_ options: ServerOptions, logger: Logger = Logger(label: "mihiraki.serve"),
                                    listening: @escaping @Sendable (String, Int) -> Void = { _, _ in })
        throws -> some ApplicationProtocol {
        let host = options.host
        return Application(
            responder: try responder(options),
            server: .http1(configuration: .init(idleTimeout: .seconds(Int64(options.idleTimeoutSeconds)))),
            configuration: .init(address: .hostname(host, port: options.port), serverName: "Mihiraki"),
            onServerRunning: { channel in listening(host, channel.localAddress?.port ?? options.port) },
            logger: logger)
    }

    /// What answers each request: HEAD as GET, then the routes. The tests
    /// call it in-process, with no socket.
    /// - Throws: ``MihirakiError`` as ``run(_:listening:)``.
    package static func responder(_ options: ServerOptions) throws -> some HTTPResponder<BasicRequestContext> {
        try options.validate()
        return HeadAsGet(inner: Routes.router(try SpreadService(options: options)).buildResponder())
    }
}
