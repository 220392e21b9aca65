import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Holds a connection's shutdown until its responses are on the wire.
///
/// On SIGTERM the server closes its listening socket and asks every
/// connection to quiesce. Hummingbird then closes a connection as soon as a
/// response's last part is queued, not written, which dropped the unsent
/// rest of large spreads (a 30 MB PNG cut at 3.9 MB). This handler sits in
/// front of it, counts the responses begun on its connection (a request
/// head) and ended (the last part's write has reached the socket), and
/// passes the quiesce on only when none is left, or after `limit` for a
/// client that stopped reading.
final class ResponseTracker: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: TimeAmount
    /// Begun on this connection and not yet written whole.
    private var open = 0
    /// A quiesce that arrived while responses were open.
    private var heldQuiesce: Scheduled<Void>?

    init(limit: TimeAmount) { self.limit = limit }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { open += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in
            let (tracker, context) = loopBound.value
            tracker.ended(context: context)
        }
        context.write(data, promise: written)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent, open > 0 else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        heldQuiesce = context.eventLoop.scheduleTask(in: limit) {
            let (tracker, context) = loopBound.value
            tracker.releaseQuiesce(context: context)
        }
    }

    /// A response with no request head counted (the answer to a request
    /// that could not be parsed) ends nothing.
    private func ended(context: ChannelHandlerContext) {
        if open > 0 { open -= 1 }
        if open == 0 { releaseQuiesce(context: context) }
    }

    private func releaseQuiesce(context: ChannelHandlerContext) {
        guard let held = heldQuiesce else { return }
        held.cancel()
        heldQuiesce = nil
        context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    }
}
