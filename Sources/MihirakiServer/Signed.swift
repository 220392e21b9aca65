import HTTPTypes
import Hummingbird
import MihirakiRequests

/// With signing on (`--sign-key`), every request but `/healthz` and
/// `/metrics` must come as `/s/{signature}/…` with a signature of the rest
/// (URLSigner): a good one is answered as the unsigned path, anything else
/// is 403 with a JSON error. The viewer is not served then (it builds URLs in
/// the browser, where the key must not go).
struct Signed<Inner: HTTPResponder>: HTTPResponder where Inner.Context == BasicRequestContext {
    let inner: Inner
    let signer: URLSigner?

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard let signer else { return try await inner.respond(to: request, context: context) }
        let target = request.head.path ?? ""
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if path == "/healthz" || path == "/metrics" { return try await inner.respond(to: request, context: context) }
        guard let (signature, rest) = URLSigner.split(target[...]) else {
            return Self.refused("this server answers signed URLs only: /s/{signature}/api/…")
        }
        guard signer.verifies(signature, rest) else { return Self.refused("the URL's signature is not valid") }
        let restPath = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard restPath.hasPrefix("/api/") else { return Self.refused("signed URLs reach /api/… only") }
        var head = request.head
        head.path = String(rest)
        return try await inner.respond(to: Request(head: head, body: request.body), context: context)
    }

    static func refused(_ message: String) -> Response { Routes.error(message, status: .forbidden) }
}
