import Dispatch
import Hummingbird
import NIOCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Mihiraki
import Logging
import ServiceLifecycle

/// `mihiraki serve`: the books under a folder, over HTTP (SPEC §7).
public enum SpreadServer {
    /// Serves until SIGTERM or SIGINT, then stops: the listening socket is
    /// closed at once (new connections are refused), every response already
    /// begun is sent whole, idle connections are closed, and it returns.
    /// - Parameter listening: called once the socket is bound, with its address and port.
    /// - Throws: ``MihirakiError``: `.usage` for invalid options or an address
    ///   that cannot be listened on, `.badBook` when ROOT is not a folder.
    public static func run(_ options: ServerOptions, listening: @escaping @Sendable (String, Int) -> Void) async throws {
        var logger = Logger(label: "mihiraki.serve")
        logger.logLevel = .critical  // errors reach the user as Mihiraki's own lines
        let stop = Stop()
        try options.validate()
        let service = try SpreadService(options: options)
        if let open = options.openBook, !service.catalog.books.contains(where: { $0.id == open }) {
            throw MihirakiError(.usage, "--open: there is no book '\(open)' under \(options.root)")
        }
        // The workers' scratch folder goes with the server, however `run` ends.
        defer { service.workers?.shutdown() }
        let app = application(options, service: service, logger: logger) { channel in
            let gate = try? await ListenerGate.install(on: channel).get()
            stop.listener.withLock { $0 = gate }
            listening(options.host, channel.localAddress?.port ?? options.port)
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        // SIGTERM and SIGINT are handled here, not through the service group's
        // signal sequence: its hops through the task pool took 0.4 s under load,
        // and new connections were accepted meanwhile. The listener stops
        // accepting at once and closes once no connection is half set up
        // (ListenerGate), then the group shuts down gracefully (each
        // connection finishes sending what it began: ResponseTracker).
        let sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: stop.queue)
            source.setEventHandler {
                guard stop.signalled.exchange(true, ordering: .acquiringAndReleasing) == false else { return }
                let shutDown: @Sendable () -> Void = { Task { await group.triggerGracefulShutdown() } }
                if let gate = stop.listener.withLock({ $0 }) { gate.close(then: shutDown) } else { shutDown() }
            }
            source.resume()
            return source
        }
        defer {
            sources.forEach { $0.cancel() }
            if options.accessLog != nil { AccessLog.flush() }
        }
        do {
            try await group.run()
        } catch where stop.signalled.load(ordering: .acquiring) {
            // The listener was closed by the signal before the group heard of
            // it, so the server ended "unexpectedly": it ended as asked.
        } catch {
            throw Self.explained(error, options)
        }
    }

    /// What a stop signal needs: the listening socket's gate once bound, and whether one came.
    private final class Stop: Sendable {
        let listener = Mutex<ListenerGate?>(nil)
        let signalled = Atomic<Bool>(false)
        let queue = DispatchQueue(label: "mihiraki.serve.signals")
    }

    /// A socket error in words a user acts on.
    static func explained(_ error: any Error, _ options: ServerOptions) -> any Error {
        if let io = error as? IOError, io.errnoCode == EADDRINUSE {
            return MihirakiError(.usage, "port \(options.port) is in use (try --port N, or 0 for any free port)")
        }
        if let io = error as? IOError, io.errnoCode == EADDRNOTAVAIL || io.errnoCode == EACCES {
            return MihirakiError(.usage, "cannot listen on \(options.host):\(options.port): \(FileSystem.errnoText(io.errnoCode))")
        }
        if error is SocketAddressError || error is SocketAddressError.UnknownHost {
            return MihirakiError(.usage, "--host \(options.host) is not an address of this machine (try 127.0.0.1 or 0.0.0.0)")
        }
        return error
    }

    /// The HTTP application `run` serves: routes, HEAD, limits.
    /// - Throws: ``MihirakiError`` as ``run(_:listening:)``.
    static func application(_ options: ServerOptions, service: SpreadService, logger: Logger,
                            onRunning: @escaping @Sendable (any Channel) async -> Void) -> some ApplicationProtocol {
        let idle = TimeAmount.seconds(Int64(options.idleTimeoutSeconds))
        return Application(
            responder: responder(service, options),
            server: .http1(configuration: .init(additionalChannelHandlers: [ResponseTracker(limit: idle)], idleTimeout: idle)),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "Mihiraki"),
            onServerRunning: { channel in await onRunning(channel) },
            logger: logger)
    }

    /// What answers each request: counted and logged, GET and HEAD only, the
    /// signature checked, HEAD as GET, then the routes. The tests
    /// call it in-process, with no socket.
    /// - Throws: ``MihirakiError`` as ``run(_:listening:)``.
    package static func responder(_ options: ServerOptions) throws -> some HTTPResponder<BasicRequestContext> {
        try options.validate()
        return responder(try SpreadService(options: options), options)
    }

    static func responder(_ service: SpreadService, _ options: ServerOptions) -> some HTTPResponder<BasicRequestContext> {
        Observed(inner: OnlyGetAndHead(inner: Signed(inner: HeadAsGet(inner: Routes.router(service).buildResponder()),
                                                            signer: options.signer)),
                        metrics: service.metrics, log: options.accessLog)
    }
}
