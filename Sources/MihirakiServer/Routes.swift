import Foundation
import HTTPTypes
import Hummingbird
import Mihiraki
import MihirakiCodecs
import MihirakiRequests

/// The HTTP face of ``SpreadService`` (SPEC §7): routes, JSON errors,
/// caching headers.
enum Routes {
    static func router(_ service: SpreadService) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: SafeResponses(service: service))
        // With signed URLs the viewer is not served: it would need the key in the browser.
        if service.options.signer == nil {
            router.get("/") { _, _ in Viewer.page(opening: service.options.openBook) }
            router.get("/viewer.js") { _, _ in Viewer.asset(Viewer.script, type: "text/javascript; charset=utf-8") }
            router.get("/viewer.css") { _, _ in Viewer.asset(Viewer.style, type: "text/css; charset=utf-8") }
        }
        router.get("/healthz") { _, _ in json(["status": "ok"]) }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: service.metricsText())))
        }
        router.get("/api/books") { request, _ in
            // Paged: `offset` (default 0) and `limit` (default 1000, at most 100000); the total comes with every page.
            let (offset, limit) = try page(parameters(request))
            let all = service.catalog.books
            let books = all.dropFirst(offset).prefix(limit).map { entry in
                ["id": entry.id, "kind": entry.kind,
                 "url": "/api/books/" + BookID.encode(entry.id)]
            }
            return json(["books": Array(books), "total": all.count, "offset": offset, "limit": limit])
        }
        router.get("/api/books/:id/manifest") { request, context in
            let entry = try service.entry(encodedID: try rawParameter("id", context))
            let options = try service.checked(try SpreadQuery.options(parameters(request), format: nil,
                                                                      maxPixels: service.options.maxPixels))
            let planned = try await service.plan(entry, options: options, query: parameters(request)).planned
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: planned.manifest)))
        }
        router.get("/api/books/:id/spreads/:file") { request, context in
            let entry = try service.entry(encodedID: try rawParameter("id", context))
            let (number, format) = try spreadFile(try rawParameter("file", context))
            let query = parameters(request)
            let options = try service.checked(try SpreadQuery.options(query, format: format,
                                                                      maxPixels: service.options.maxPixels))
            let answer = try await service.spread(entry, number: number, options: options, query: query,
                                                  ifNoneMatch: request.headers[.ifNoneMatch])
            switch answer {
            case .notModified(let etag):
                return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: cacheControl])
            case .spread(let bytes, let etag, let format, let cached):
                return Response(status: .ok,
                                headers: [.contentType: format.mimeType, .eTag: etag, .cacheControl: cacheControl,
                                          .xCache: cached ? "HIT" : "MISS"],
                                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
        }
        return router
    }

    /// Spreads may be kept a minute, then revalidated with their ETag (a
    /// book changed on disk gets a new one).
    static let cacheControl = "public, max-age=60"

    /// `7.png` → (7, .png); anything else is a 404 (no such spread file).
    static func spreadFile(_ name: Substring) throws -> (Int, SpreadFormat) {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 9, parts[0].allSatisfy(\.isASCII), let number = Int(parts[0]),
              number >= 1, let format = SpreadFormat.allCases.first(where: { $0.fileExtension == parts[1] }) else {
            throw ServerError(.notFound, "spread files are named " + listed(SpreadFormat.allCases.map { "N." + $0.fileExtension }, "or"))
        }
        return (number, format)
    }

    /// The book list's page: `offset` ≥ 0 (default 0), `limit` 1–100000 (default 1000).
    /// - Throws: 400 naming the parameter.
    static func page(_ parameters: [(name: String, value: String)]) throws -> (offset: Int, limit: Int) {
        var offset = 0, limit = 1000
        for (name, value) in parameters {
            switch name {
            case "offset":
                guard let n = Int(value), n >= 0 else { throw ServerError(.badRequest, "offset takes a whole number from 0") }
                offset = n
            case "limit":
                guard let n = Int(value), (1...100_000).contains(n) else {
                    throw ServerError(.badRequest, "limit takes a whole number from 1 to 100000")
                }
                limit = n
            default:
                throw ServerError(.badRequest, "the book list takes offset and limit, not \(name)")
            }
        }
        return (offset, limit)
    }

    /// A route parameter exactly as it came in the request line (still percent-encoded).
    static func rawParameter(_ name: String, _ context: BasicRequestContext) throws -> Substring {
        guard let value = context.parameters[name[...]] else { throw ServerError(.notFound, "no such route") }
        return value
    }

    /// Query parameters, values percent-decoded once.
    static func parameters(_ request: Request) -> [(name: String, value: String)] {
        request.uri.queryParameters.map { (String($0.key), String($0.value)) }
    }

    /// A JSON error answered before the router (whose middleware adds the
    /// safety headers to everything behind it): `{"error": …}`, nosniff.
    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        var response = json(["error": message], status: status)
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }

    static func json(_ object: Any, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Every answer gets `X-Content-Type-Options: nosniff`; every failure
/// becomes JSON `{"error": …}` with no host path and no stack trace in it.
struct SafeResponses: RouterMiddleware {
    typealias Context = BasicRequestContext
    let service: SpreadService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as ServerError {
            response = Routes.json(["error": service.relative(error.message)], status: error.status)
            if let seconds = error.retryAfter { response.headers[.retryAfter] = String(seconds) }
        } catch let error as HTTPResponseError {
            let status = error.status
            response = Routes.json(["error": status == .notFound ? "no such route" : status.reasonPhrase], status: status)
        } catch {
            response = Routes.json(["error": "internal error"], status: .internalServerError)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}

/// HEAD answered as GET without the body (CDNs and `curl -I` ask it), before
/// the router looks for a route.
struct HeadAsGet<Inner: HTTPResponder>: HTTPResponder where Inner.Context == BasicRequestContext {
    let inner: Inner

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard request.method == .head else { return try await inner.respond(to: request, context: context) }
        var get = request.head
        get.method = .get
        var response = try await inner.respond(to: Request(head: get, body: request.body), context: context)
        // The GET's length, and nothing written: NIO sends no body after a HEAD.
        response.body = ResponseBody(contentLength: response.body.contentLength) { writer in try await writer.finish(nil) }
        return response
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let contentSecurityPolicy = Self("Content-Security-Policy")!
}
