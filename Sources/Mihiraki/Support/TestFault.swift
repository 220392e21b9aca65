#if canImport(Glibc)
import Glibc
#endif

/// Faults that Mihiraki's own tests inject into a render, so that what
/// survives a failure nobody foresaw (the command's supervisor, the server's
/// workers) stays tested after every real cause of such a failure is fixed.
///
/// Set by the environment variable `MIHIRAKI_TEST_FAULT=KIND:NAME[,KIND:NAME…]`,
/// read once: drawing a page whose file name is `NAME`, or decoding it to
/// measure it (automatic pairing's edges, `--split-wide auto`, `--crop-borders`),
/// then does `KIND`:
/// - `crash`: stops the process with a trap, as a failed precondition would;
/// - `hang`: never returns;
/// - `allocate`: takes memory without bound, touching every page of it, and
///   traps when an allocation is refused, as Swift does;
/// - `kill`: ends the process with SIGKILL, as the kernel's out-of-memory
///   killer ends the process using the most memory.
///
/// Unset (as everywhere but in the tests), it costs one comparison a page.
enum TestFault {
    enum Kind: String { case crash, hang, allocate, kill }

    /// The planned faults by page name; nil when none is.
    static let planned: [String: Kind]? = {
        guard let raw = getenv("MIHIRAKI_TEST_FAULT") else { return nil }
        var faults: [String: Kind] = [:]
        for item in String(cString: raw).split(separator: ",") {
            guard let colon = item.firstIndex(of: ":"), let kind = Kind(rawValue: String(item[..<colon])) else { continue }
            faults[String(item[item.index(after: colon)...])] = kind
        }
        return faults.isEmpty ? nil : faults
    }()

    /// Does the planned fault if `pagePath` names its page.
    static func strike(drawing pagePath: String) {
        let page = FileSystem.lastComponent(of: pagePath)
        guard let kind = planned?[page] else { return }
        switch kind {
        case .crash:
            fatalError("MIHIRAKI_TEST_FAULT: crash while drawing \(page)")
        case .hang:
            while true { sleep(60) }
        case .kill:
            raise(SIGKILL)
        case .allocate:
            var kept: [UnsafeMutableRawPointer] = []
            while true {
                // Refused by the memory limit: end as Swift does when an allocation fails.
                guard let block = malloc(64 << 20) else { fatalError("MIHIRAKI_TEST_FAULT: out of memory") }
                memset(block, 1, 64 << 20)
                kept.append(block)
            }
        }
    }
}
