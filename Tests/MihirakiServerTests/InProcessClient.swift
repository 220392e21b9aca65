import HTTPTypes
import Hummingbird
import Logging
import MihirakiServer
import NIOCore
import NIOEmbedded
import Synchronization

/// Sends requests straight to the server's responder, in-process: the routes,
/// errors and headers `mihiraki serve` answers with, without a socket or a
/// process. (HummingbirdTesting's router client does the same, but its
/// package brings an HTTP client and TLS stack the tests do not need.)
struct InProcessClient: Sendable {
    /// One answer: the response head and the whole body.
    struct Answer: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: ByteBuffer
    }

    let responder: any HTTPResponder<BasicRequestContext>

    /// Collects a response body.
    private struct Collector: ResponseBodyWriter {
        let body: Box
        final class Box: Sendable {
            let bytes = Mutex(ByteBuffer())
        }
        mutating func write(_ buffer: ByteBuffer) async throws {
            body.bytes.withLock { bytes in
                var buffer = buffer
                bytes.writeBuffer(&buffer)
            }
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    func execute(uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:]) async throws -> Answer {
        let request = Request(head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri,
                                                headerFields: headers),
                              body: RequestBody(buffer: ByteBuffer()))
        let context = BasicRequestContext(source: ApplicationRequestContextSource(
            channel: NIOAsyncTestingChannel(), logger: Logger(label: "mihiraki.test")))
        let response = try await responder.respond(to: request, context: context)
        let box = Collector.Box()
        try await response.body.write(Collector(body: box))
        return Answer(status: response.status, headers: response.headers, body: box.bytes.withLock { $0 })
    }
}
