#if canImport(Glibc)
import Glibc
#endif

/// Faults that Mihiraki's own tests inject into a render, so that what
/// survives a failure nobody foresaw (the command's supervisor, the server's
/// workers) stays tested after every real cause of such a failure is fixed.
///
/// Set by the environment variable `MIHIRAKI_TEST_FAULT=KIND:NAME`, read once:
/// drawing a page whose file name is `NAME` then does `KIND`:
/// - `crash`: stops the process with a trap, as a failed precondition would;
/// - `hang`: never returns;
/// - `allocate`: takes memory without bound, touching every page of it.
///
/// Unset (as everywhere but in the tests), it costs one comparison a page.
enum TestFault {
    enum Kind: String { case crash, hang, allocate }

    static let planned: (kind: Kind, page: String)? = {
        guard let raw = getenv("MIHIRAKI_TEST_FAULT") else { return nil }
        let text = String(cString: raw)
        guard let colon = text.firstIndex(of: ":"), let kind = Kind(rawValue: String(text[..<colon])) else { return nil }
        return (kind, String(text[text.index(after: colon)...]))
    }()

    /// Does the planned fault if `pagePath` names its page.
    static func strike(drawing pagePath: String) {
        guard let (kind, page) = planned, FileSystem.lastComponent(of: pagePath) == page else { return }
        switch kind {
        case .crash:
            fatalError("MIHIRAKI_TEST_FAULT: crash while drawing \(page)")
        case .hang:
            while true { sleep(60) }
        case .allocate:
            var kept: [UnsafeMutableRawPointer] = []
            while true {
                guard let block = malloc(64 << 20) else { continue }
                memset(block, 1, 64 << 20)
                kept.append(block)
            }
        }
    }
}
