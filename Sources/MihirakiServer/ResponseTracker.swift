import HTTPTypes
import Mihiraki
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Mihiraki's rules for one connection, in front of Hummingbird's own
/// handling of it.
///
/// **Shutdown waits for responses to reach the wire.**
/// On SIGTERM the server closes its listening socket and asks every
/// connection to quiesce. Hummingbird then closes a connection as soon as a
/// response's last part is queued, not written, which dropped the unsent
/// rest of large spreads (a 30 MB PNG cut at 3.9 MB). This handler sits in
/// front of it, counts the responses begun on its connection (a request
/// head) and ended (the last part's write has reached the socket), and
/// passes the quiesce on only when none is left, or after `limit` for a
/// client that stopped reading.
///
/// **A request that cannot be parsed gets a JSON error too.** Hummingbird
/// answers a request line or header past its limits with a bare 400; the
/// answer here says what was wrong, in the JSON every other error uses.
///
/// **A method that is not GET or HEAD is 405 with `Allow`, always.** The
/// HTTP/1 parser refuses a method it does not know (`FOO`) as malformed, and
/// the HTTP/1 encoder strips the body from any answer to `CONNECT` and keeps
/// the connection waiting; both get the JSON 405 every other method gets,
/// and a `CONNECT` connection is closed after it (the parser has stopped).
///
/// **HTTP/1.0 closes unless asked not to.** The HTTP/1 codec drops the
/// version, so an HTTP/1.0 request without `Connection: keep-alive` held its
/// connection open until the idle timeout; ``HTTP10Close`` marks it
/// `Connection: close` before the codec forgets.
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

    /// The parser's error for the request being answered, if it had one.
    private var parseError: HTTPParserError?

    init(limit: TimeAmount) { self.limit = limit }

    /// The error for a method Mihiraki does not answer, however it arrives.
    static func methodNotAllowed(_ method: String) -> String {
        "\(method) is not allowed: Mihiraki answers GET and HEAD"
    }

    private static func errorJSON(_ message: String) -> String { #"{"error":"# + JSONWriter.quoted(message) + "}" }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        if let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) {
            try? pipeline.addHandler(HTTP10Close(), position: .before(codec))
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            if head.method == .connect {
                refuseConnect(context: context)
                return
            }
            open += 1
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError { parseError = error }
        context.fireErrorCaught(error)
    }

    /// The 405 for `CONNECT`, written as bytes beneath the HTTP/1 encoder
    /// (which would drop its body), then the connection closed.
    private func refuseConnect(context: ChannelHandlerContext) {
        guard let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            context.close(promise: nil)
            return
        }
        let body = Self.errorJSON(Self.methodNotAllowed("CONNECT"))
        let head = "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "X-Content-Type-Options: nosniff\r\nServer: Mihiraki\r\nConnection: close\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n"
        // The completion runs on the channel's own event loop, where the context may be used.
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        encoder.writeAndFlush(NIOAny(ByteBuffer(string: head + body))).whenComplete { _ in bound.value.close(promise: nil) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if case .head(var head) = part, open == 0, head.status == .badRequest, head.headerFields[.contentLength] == "0",
           head.headerFields[.contentType] == nil {
            // Hummingbird's answer to a request it could not parse.
            var body = ByteBuffer(string: #"{"error":"the request could not be read: its line or headers are too long or malformed"}"#)
            if case .invalidMethod = parseError {
                head.status = .methodNotAllowed
                head.headerFields[.allow] = "GET, HEAD"
                body = ByteBuffer(string: Self.errorJSON(Self.methodNotAllowed("this method")))
            }
            head.headerFields[.contentLength] = String(body.readableBytes)
            head.headerFields[.contentType] = "application/json; charset=utf-8"
            head.headerFields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: promise)
            return
        }
        guard case .end = part else {
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

/// Marks an HTTP/1.0 request that does not ask to keep its connection
/// `Connection: close`, while the version is still known (see ``ResponseTracker``).
final class HTTP10Close: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.version == .http1_0, !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
