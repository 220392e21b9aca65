import Foundation
import HTTPTypes
import Hummingbird
import Mihiraki
import MihirakiRequests
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The access log's lines: one JSON object per request, its keys sorted.
///
/// A line is written by hand (no Foundation formatting, no dictionary) into
/// a shared buffer, and a thread of its own writes the buffer to standard
/// error every few milliseconds: a request's cost is building its line and
/// appending it under a lock held for that copy only, never a system call.
enum AccessLog {
    /// The line for one request: `{"bytes":…,"cache":…,"duration_ms":…,"method":…,"path":…,"status":…,"time":…}`.
    static func line(method: String, path: String, status: Int, bytes: Int, seconds: Double, cache: String?,
                     now: timespec = AccessLog.now()) -> String {
        var out = "{\"bytes\":\(bytes),"
        if let cache { out += "\"cache\":\"\(cache)\"," }
        let micros = Int((seconds * 1e6).rounded())
        out += "\"duration_ms\":\(micros / 1000).\(digits(micros % 1000, 3)),\"method\":"
        out += JSONWriter.quoted(method) + ",\"path\":" + JSONWriter.quoted(path)
        out += ",\"status\":\(status),\"time\":\"" + timestamp(now) + "\"}"
        return out
    }

    static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    /// `now` as `2026-11-23T10:15:30.123Z`.
    static func timestamp(_ now: timespec = AccessLog.now()) -> String {
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return digits(Int(parts.tm_year) + 1900, 4) + "-" + digits(Int(parts.tm_mon) + 1, 2) + "-" + digits(Int(parts.tm_mday), 2)
            + "T" + digits(Int(parts.tm_hour), 2) + ":" + digits(Int(parts.tm_min), 2) + ":" + digits(Int(parts.tm_sec), 2)
            + "." + digits(Int(now.tv_nsec / 1_000_000), 3) + "Z"
    }

    /// `value` in decimal with at least `width` digits.
    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// Writes access-log lines to standard error, whole, in batches.
    static func standardError() -> @Sendable (String) -> Void {
        let writer = BatchWriter.standardError
        return { line in writer.append(line) }
    }

    /// Writes what is buffered now (the server calls it as it stops).
    static func flush() { BatchWriter.standardError.flush() }

    /// Lines gathered in memory and written to a descriptor by a thread of
    /// its own every 20 ms, or at once past 64 KiB.
    final class BatchWriter: Sendable {
        static let standardError = BatchWriter(fd: 2)

        private let fd: Int32
        private let pending = Mutex<[UInt8]>([])
        private let wake = DispatchSemaphore(value: 0)
        private let writing = Mutex<Void>(())

        init(fd: Int32) {
            self.fd = fd
            let thread = Thread { [self] in
                while true {
                    _ = wake.wait(timeout: .now() + .milliseconds(20))
                    flush()
                }
            }
            thread.name = "mihiraki.access-log"
            thread.start()
        }

        func append(_ line: String) {
            let size = pending.withLock { buffer in
                buffer.append(contentsOf: line.utf8)
                buffer.append(10)
                return buffer.count
            }
            if size > 64 << 10 { wake.signal() }
        }

        /// Writes every line appended so far, in order.
        func flush() {
            writing.withLock { _ in
                let bytes = pending.withLock { buffer in
                    defer { buffer.removeAll(keepingCapacity: true) }
                    return buffer
                }
                guard !bytes.isEmpty else { return }
                bytes.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { break }
                        offset += n
                    }
                }
            }
        }
    }
}
