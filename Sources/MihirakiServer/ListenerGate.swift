import NIOCore

/// Closes the listening socket on a stop signal without dropping a
/// connection that is half set up.
///
/// An accepted connection reaches the server's accept loop in two steps: the
/// listener reads it, then its pipeline is built on its own event loop, and
/// only then is it handed to the loop. A listener closed between the two
/// steps threw the finished connection away, and SwiftNIO stops the process
/// when that happens ("Deinited NIOAsyncWriter without calling finish()"):
/// under load, `mihiraki serve` died on SIGTERM with its responses cut.
///
/// The gate watches both steps on the listener's pipeline: a handler first
/// in line notes each connection read, one last in line notes it handed on
/// (a connection whose set-up failed is closed, and counts as handed on).
/// ``close(then:)`` stops accepting at once, waits for the connections in
/// between, then closes the listener; new connections are refused from then on.
final class ListenerGate: Sendable {
    private let channel: any Channel
    private let state: NIOLoopBoundBox<State>

    private struct State {
        /// Read by the listener and not yet handed to the accept loop.
        var settingUp = Set<ObjectIdentifier>()
        /// What to do once closed, when a close was asked for.
        var whenClosed: (@Sendable () -> Void)?
        var closing = false
    }

    /// Adds the gate's handlers to the listener `channel`.
    static func install(on channel: any Channel) -> EventLoopFuture<ListenerGate> {
        channel.eventLoop.submit {
            let gate = ListenerGate(channel)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(Watch(gate, handedOn: false), position: .first)
            try pipeline.addHandler(Watch(gate, handedOn: true), position: .last)
            return gate
        }
    }

    private init(_ channel: any Channel) {
        self.channel = channel
        state = NIOLoopBoundBox(State(), eventLoop: channel.eventLoop)
    }

    /// Stops accepting, waits for connections being set up, closes the
    /// listener, then calls `whenClosed`. May be called from any thread.
    func close(then whenClosed: @escaping @Sendable () -> Void) {
        channel.eventLoop.execute {
            guard !self.state.value.closing else { return }
            self.state.value.closing = true
            self.state.value.whenClosed = whenClosed
            self.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in self.closeIfSettled() }
        }
    }

    private func read(_ connection: any Channel) {
        let id = ObjectIdentifier(connection)
        state.value.settingUp.insert(id)
        let loop = channel.eventLoop
        connection.closeFuture.whenComplete { _ in loop.execute { self.handedOn(id) } }
    }

    private func handedOn(_ id: ObjectIdentifier) {
        guard state.value.settingUp.remove(id) != nil else { return }
        closeIfSettled()
    }

    private func closeIfSettled() {
        guard state.value.closing, state.value.settingUp.isEmpty, let whenClosed = state.value.whenClosed else { return }
        state.value.whenClosed = nil
        // Scheduled, not done here: the last connection handed on is queued
        // for the accept loop just after its read passes the last handler.
        channel.eventLoop.execute {
            self.channel.close().whenComplete { _ in whenClosed() }
        }
    }

    /// One of the gate's two handlers on the listener's pipeline.
    private final class Watch: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = any Channel
        typealias InboundOut = any Channel
        private let gate: ListenerGate
        private let handedOn: Bool

        init(_ gate: ListenerGate, handedOn: Bool) {
            self.gate = gate
            self.handedOn = handedOn
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let connection = unwrapInboundIn(data)
            if handedOn { gate.handedOn(ObjectIdentifier(connection)) } else { gate.read(connection) }
            context.fireChannelRead(data)
        }
    }
}
