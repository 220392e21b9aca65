import Foundation
import Mihiraki

/// A book's id in a URL: its path relative to ROOT, its exact bytes
/// percent-encoded as one path segment (`Series%20A%2Fvol1`, `bad%FFname`
/// for a folder whose name is not UTF-8: SPEC §7b). It is decoded exactly
/// once, and what the decoding gives must be a plain relative path.
public enum BookID {
    /// The id in `segment` (still encoded, as it came in the request line).
    /// - Throws: ``ServerError`` 400 for malformed encoding, an empty, `.` or
    ///   `..` component, an absolute id, a NUL or backslash, or anything still
    ///   percent-encoded after one decoding (double encoding).
    public static func decode(_ segment: Substring) throws -> String {
        guard let bytes = percentDecoded(segment) else {
            throw ServerError(.badRequest, "malformed book id: bad percent-encoding")
        }
        let id = FileSystem.path(bytes: bytes)
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
        var text = ""
        for byte in FileSystem.bytes(ofPath: id) {
            if unreserved.contains(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return text
    }

    /// `segment` with each `%HH` made the byte it stands for; nil when a `%`
    /// is not followed by two hexadecimal digits.
    static func percentDecoded(_ segment: Substring) -> [UInt8]? {
        let input = Array(segment.utf8)
        var bytes: [UInt8] = [], i = 0
        while i < input.count {
            if input[i] == UInt8(ascii: "%") {
                guard i + 2 < input.count, let high = hex(input[i + 1]), let low = hex(input[i + 2]) else { return nil }
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(input[i])
                i += 1
            }
        }
        return bytes
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// RFC 3986's unreserved characters, as bytes.
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
}
