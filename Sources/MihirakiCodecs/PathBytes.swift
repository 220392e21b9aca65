#if canImport(Glibc)
import Glibc
#endif

/// File paths as Mihiraki holds them: a Swift `String` that keeps a path's
/// exact bytes, so a file or folder whose name is not valid UTF-8 opens,
/// lists and is served like any other (Linux names are bytes).
///
/// Valid UTF-8 is held as the text it is. Each byte of a name that is not
/// part of valid UTF-8 is held as one code point of the last private-use
/// block (U+10FF80 + byte − 0x80), which no file name in use spells; going
/// back to the system, each such code point is that byte again. Messages
/// show those bytes as `\xFF` (``shown(_:)``).
package enum PathBytes {
    /// The code point standing for byte 0x80; bytes 0x80–0xFF follow it.
    static let first: UInt32 = 0x10FF80

    /// `bytes` (a path from the system) as a path string, losslessly.
    package static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let bytes = Array(bytes)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decode(bytes, at: i) {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(first + UInt32(bytes[i]) - 0x80)!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// A NUL-terminated path from the system, losslessly.
    package static func string(cString: UnsafePointer<CChar>) -> String {
        string(UnsafeBufferPointer(start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: strlen(cString)))
    }

    /// The path's bytes, as the system takes them.
    package static func bytes(_ path: String) -> [UInt8] {
        guard path.unicodeScalars.contains(where: { $0.value >= first }) else { return Array(path.utf8) }
        var out: [UInt8] = []
        for scalar in path.unicodeScalars {
            if scalar.value >= first { out.append(UInt8(scalar.value - first + 0x80)) } else { out += Array(String(scalar).utf8) }
        }
        return out
    }

    /// Calls `body` with the path as the system takes it.
    package static func withCString<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        guard path.unicodeScalars.contains(where: { $0.value >= first }) else { return try path.withCString(body) }
        let bytes = self.bytes(path) + [0]
        return try bytes.withUnsafeBufferPointer { try body(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }
    }

    /// The path as a message shows it: each byte that is not UTF-8 as `\xHH`.
    package static func shown(_ path: String) -> String {
        guard path.unicodeScalars.contains(where: { $0.value >= first }) else { return path }
        var text = ""
        for scalar in path.unicodeScalars {
            if scalar.value >= first {
                let byte = scalar.value - first + 0x80
                text += "\\x" + String(byte, radix: 16, uppercase: true)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// The valid UTF-8 sequence at `i` as one scalar and its length, or nil.
    private static func decode(_ bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[i]
        let (length, minimum): (Int, UInt32) = switch lead {
        case 0x00...0x7F: (1, 0)
        case 0xC2...0xDF: (2, 0x80)
        case 0xE0...0xEF: (3, 0x800)
        case 0xF0...0xF4: (4, 0x10000)
        default: (0, 0)
        }
        guard length > 0, i + length <= bytes.count else { return nil }
        var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
        if length > 1 {
            for k in 1..<length {
                let byte = bytes[i + k]
                guard byte & 0xC0 == 0x80 else { return nil }
                value = value << 6 | UInt32(byte & 0x3F)
            }
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
