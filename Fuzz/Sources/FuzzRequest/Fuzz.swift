import Mihiraki
import MihirakiRequests

/// Any bytes as what a request to `mihiraki serve` carries: the first line a
/// book id as it comes in the URL (still encoded), the rest a query string
/// (`name=value&…`, values as the server hands them over). Errors are fine;
/// a trap is a crash of the server. And what the id decoding accepts must
/// never climb out of ROOT: that is checked on every input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    if let id = try? BookID.decode(lines[0]) {
        let components = id.split(separator: "/", omittingEmptySubsequences: false)
        precondition(!id.isEmpty && !id.hasPrefix("/") && !id.utf8.contains(0) && !id.contains("\\"), "accepted \(id)")
        precondition(!components.contains { $0.isEmpty || $0 == "." || $0 == ".." }, "accepted \(id)")
    }
    if lines.count > 1 {
        let pairs = lines[1].split(separator: "&").map { item -> (name: String, value: String) in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        for format in [nil, SpreadFormat.png, .webp] {
            _ = try? SpreadQuery.options(pairs, format: format, maxPixels: 1 << 22)
        }
    }
    return 0
}
