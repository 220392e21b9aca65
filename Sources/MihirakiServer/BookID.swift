/// A book's id in a URL: its path relative to ROOT, percent-encoded as one
/// path segment (`Series%20A%2Fvol1`). It is decoded exactly once, and what
/// the decoding gives must be a plain relative path.
enum BookID {
    /// The id in `segment` (still encoded, as it came in the request line).
    /// - Throws: ``ServerError`` 400 for malformed encoding, an empty, `.` or
    ///   `..` component, an absolute id, a NUL or backslash, or anything still
    ///   percent-encoded after one decoding (double encoding).
    static func decode(_ segment: Substring) throws -> String {
        guard let bytes = percentDecoded(segment), let id = String(validating: bytes, as: UTF8.self) else {
            throw ServerError(.badRequest, "malformed book id: bad percent-encoding or not UTF-8")
        }
        if id.isEmpty || id.hasPrefix("/") {
            throw ServerError(.badRequest, "book ids are relative paths")
        }
        if id.utf8.contains(0) || id.contains("\\") {
            throw ServerError(.badRequest, "book ids contain no NUL or backslash")
        }
        if looksEncoded(id) {
            throw ServerError(.badRequest, "book id is still percent-encoded after decoding (double encoding)")
        }
        for component in id.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty || component == "." || component == ".." {
                throw ServerError(.badRequest, "book ids have no empty, . or .. components")
            }
        }
        return id
    }

    /// `%XX` anywhere in the text.
    private static func looksEncoded(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3 else { return false }
        for i in 0..<(bytes.count - 2) where bytes[i] == UInt8(ascii: "%") {
            if hexValue(bytes[i + 1]) != nil && hexValue(bytes[i + 2]) != nil { return true }
        }
        return false
    }

    /// One round of percent-decoding; nil when a `%` is not followed by two hex digits.
    static func percentDecoded(_ text: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { out.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    /// The id as one URL path segment: everything but unreserved characters encoded, `/` as `%2F`.
    static func encode(_ id: String) -> String {
        var out = ""
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
