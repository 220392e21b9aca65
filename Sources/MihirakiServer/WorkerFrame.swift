#if canImport(Glibc)
import Glibc
#endif

/// How the server and its rendering workers talk over a pipe: frames of a
/// 4-byte little-endian length and that many bytes. A request is the JSON of
/// ``WorkerRequest``; an answer is one byte, 0 for a spread file (the rest of
/// the frame) or 1 for an error (JSON: `status`, `message`).
enum WorkerFrame {
    /// The largest frame either side accepts (a spread file of the largest
    /// canvas `--max-size` allows, with room to spare).
    static let limit = 1 << 30

    /// Writes one frame whole; false when the other end is gone.
    static func write(_ payload: [UInt8], to fd: Int32) -> Bool {
        let count = UInt32(payload.count)
        let header = (0..<4).map { UInt8(truncatingIfNeeded: count >> (8 * $0)) }
        return writeAll(header, to: fd) && writeAll(payload, to: fd)
    }

    /// Reads one frame; nil at the end of the stream, on an error, or for a
    /// frame over ``limit``.
    static func read(from fd: Int32) -> [UInt8]? {
        guard let header = readExactly(4, from: fd) else { return nil }
        let count = header.enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        guard count <= limit else { return nil }
        return readExactly(count, from: fd)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    private static func readExactly(_ count: Int, from fd: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let complete = bytes.withUnsafeMutableBytes { raw -> Bool in
            var offset = 0
            while offset < count {
                let n = Glibc.read(fd, raw.baseAddress! + offset, count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        return complete ? bytes : nil
    }
}

/// One spread for a worker to render: the book (its path and the catalog's
/// signature of its files, so a changed book is opened anew), the request's
/// layout parameters as sent, the format its extension names, and the
/// spread's number (1-based).
struct WorkerRequest: Codable, Sendable {
    var path: String
    var signature: String
    var query: [[String]]
    var format: String
    var spread: Int
    /// Milliseconds left before the request's deadline when it was sent.
    var millisecondsLeft: Int
    /// True to answer the plan's manifest (its JSON) instead of a spread: a
    /// plan that decodes pages is made in a worker, never in the server.
    var manifest: Bool? = nil
}
