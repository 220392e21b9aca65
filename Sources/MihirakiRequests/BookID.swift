import Foundation

/// A book's id in a URL: its path relative to ROOT, percent-encoded as one
/// path segment (`Series%20A%2Fvol1`). It is decoded exactly once, and what
/// the decoding gives must be a plain relative path.
public enum BookID {
    /// The id in `segment` (still encoded, as it came in the request line).
    /// - Throws: ``ServerError`` 400 for malformed encoding, an empty, `.` or
    ///   `..` component, an absolute id, a NUL or backslash, or anything still
    ///   percent-encoded after one decoding (double encoding).
    public static func decode(_ segment: Substring) throws -> String {
        guard let id = String(segment).removingPercentEncoding else {
            throw ServerError(.badRequest, "malformed book id: bad percent-encoding or not UTF-8")
        }
        if id.isEmpty || id.hasPrefix("/") {
            throw ServerError(.badRequest, "book ids are relative paths")
        }
        if id.utf8.contains(0) || id.contains("\\") {
            throw ServerError(.badRequest, "book ids contain no NUL or backslash")
        }
        if id.range(of: "%[0-9A-Fa-f]{2}", options: .regularExpression) != nil {
            throw ServerError(.badRequest, "book id is still percent-encoded after decoding (double encoding)")
        }
        for component in id.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty || component == "." || component == ".." {
                throw ServerError(.badRequest, "book ids have no empty, . or .. components")
            }
        }
        return id
    }

    /// The id as one URL path segment: everything but unreserved characters encoded, `/` as `%2F`.
    public static func encode(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: unreserved) ?? id
    }

    /// RFC 3986's unreserved characters.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
