import HTTPTypes
import Hummingbird

/// Only GET and HEAD: any other method is 405 with `Allow: GET, HEAD` and a
/// JSON error, before a route is looked for.
struct OnlyGetAndHead<Inner: HTTPResponder>: HTTPResponder where Inner.Context == BasicRequestContext {
    let inner: Inner

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            var response = Routes.error(ResponseTracker.methodNotAllowed(request.method.rawValue),
                                        status: .methodNotAllowed)
            response.headers[.allow] = "GET, HEAD"
            return response
        }
        return try await inner.respond(to: request, context: context)
    }
}
