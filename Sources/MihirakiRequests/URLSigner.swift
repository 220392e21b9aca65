/// Signed URLs in imgproxy's scheme, so signing code written for imgproxy
/// carries over: `/s/{signature}/api/books/…?…`, where the signature is the
/// URL-safe Base64 (no padding) of HMAC-SHA256(key, salt + everything after
/// the signature: the path from its `/` and the query exactly as sent).
/// Several key and salt pairs may be in use at once (key rotation): a URL
/// signed with any of them is accepted.
public struct URLSigner: Sendable {
    /// One key and its salt, as bytes (given in hex on the command line).
    public struct Pair: Sendable {
        public var key: [UInt8]
        public var salt: [UInt8]
        public init(key: [UInt8], salt: [UInt8]) {
            self.key = key
            self.salt = salt
        }
    }

    /// The pairs in use; the first one signs.
    public let pairs: [Pair]

    /// A signer for these pairs (at least one).
    public init(pairs: [Pair]) {
        precondition(!pairs.isEmpty, "a signer needs a key")
        self.pairs = pairs
    }

    /// Pairs from comma-separated hex keys and salts, one salt per key
    /// (`--sign-key` and `--sign-salt`, or `MIHIRAKI_SIGN_KEY` and `MIHIRAKI_SIGN_SALT`).
    /// - Throws: ``ServerError`` (400) naming what is wrong.
    public init(hexKeys: String, hexSalts: String) throws {
        let keys = hexKeys.split(separator: ",", omittingEmptySubsequences: false)
        let salts = hexSalts.split(separator: ",", omittingEmptySubsequences: false)
        guard keys.count == salts.count else {
            throw ServerError(.badRequest, "--sign-key and --sign-salt need as many values each (\(keys.count) keys, \(salts.count) salts)")
        }
        var pairs: [Pair] = []
        for (key, salt) in zip(keys, salts) {
            guard let k = Self.bytes(hex: key), !k.isEmpty, let s = Self.bytes(hex: salt) else {
                throw ServerError(.badRequest, "--sign-key and --sign-salt take hexadecimal bytes (a key of at least one byte)")
            }
            pairs.append(Pair(key: k, salt: s))
        }
        self.init(pairs: pairs)
    }

    /// The signature of `pathAndQuery` (starting with `/`) with the first pair.
    public func signature(_ pathAndQuery: String) -> String {
        Self.signature(pathAndQuery, pairs[0])
    }

    /// `pathAndQuery` signed: `/s/{signature}` put before it.
    public func signed(_ pathAndQuery: String) -> String {
        "/s/" + signature(pathAndQuery) + pathAndQuery
    }

    /// A request target `/s/{signature}/rest` taken apart: the signature, and
    /// the rest from its `/` (what was signed); nil for a target without one.
    public static func split(_ target: Substring) -> (signature: Substring, rest: Substring)? {
        guard target.hasPrefix("/s/"), let slash = target.dropFirst(3).firstIndex(of: "/") else { return nil }
        return (target[target.index(target.startIndex, offsetBy: 3)..<slash], target[slash...])
    }

    /// Whether `signature` signs `pathAndQuery` under any pair, compared in
    /// constant time (no early exit on the first differing byte).
    public func verifies(_ signature: Substring, _ pathAndQuery: Substring) -> Bool {
        let given = Array(signature.utf8)
        var matched = false
        for pair in pairs {
            let expected = Array(Self.signature(String(pathAndQuery), pair).utf8)
            var difference = UInt8(given.count == expected.count ? 0 : 1)
            for index in 0..<expected.count {
                difference |= expected[index] ^ (index < given.count ? given[index] : 0)
            }
            matched = matched || difference == 0
        }
        return matched
    }

    static func signature(_ pathAndQuery: String, _ pair: Pair) -> String {
        base64URL(SHA256.hmac(key: pair.key, pair.salt + Array(pathAndQuery.utf8)))
    }

    /// URL-safe Base64 without padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for k in 0..<(chunk.count + 1) { out.append(alphabet[(value >> (18 - 6 * k)) & 63]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func bytes(hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
