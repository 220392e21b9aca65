import Foundation

/// The result of comparing one expected image with its actual counterpart.
public struct FileComparison: Equatable, Sendable {
    /// How the pair compared.
    public enum Status: Sendable {
        /// Equal, or different within the allowed tolerance.
        case ok
        /// More pixels differ than allowed, or the sizes differ.
        case diff
        /// In EXPECTED, not in ACTUAL.
        case missing
        /// In ACTUAL, not in EXPECTED.
        case extra
        /// One side could not be read.
        case error
    }

    /// Relative path (directories) or the actual file's path.
    public var name: String
    /// How the pair compared.
    public var status: Status
    /// Pixels that differ beyond the threshold (anti-aliased ones excluded unless asked for).
    public var differingPixels = 0
    /// Differing pixels forgiven as anti-aliasing.
    public var antialiasedPixels = 0
    /// Pixels compared: the expected image's, less the ignored ones.
    public var totalPixels = 0
    /// `W×H vs W×H` when the sizes differ; the reason when unreadable.
    public var detail: String?
    /// Its pictures in the report folder, when a report is being made.
    var pictures: Pictures?

    package init(name: String, status: Status, differingPixels: Int = 0, antialiasedPixels: Int = 0,
                 totalPixels: Int = 0, detail: String? = nil) {
        self.name = name
        self.status = status
        self.differingPixels = differingPixels
        self.antialiasedPixels = antialiasedPixels
        self.totalPixels = totalPixels
        self.detail = detail
    }

    var ratio: Double { totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels) }

    /// What happened, in words, for the HTML report and JUnit failures:
    /// `5 of 100 pixels differ (5.00 %), 0 anti-aliased`, `expected, but not produced`.
    var explanation: String {
        switch status {
        case .ok:
            return differingPixels > 0 ? "\(differingPixels) pixels differ, within tolerance" : "equal"
        case .diff:
            if let detail { return detail }
            return "\(differingPixels) of \(totalPixels) pixels differ "
                + "(\(FileComparison.percent(ratio)) %), \(antialiasedPixels) anti-aliased"
        case .missing: return "expected, but not produced"
        case .extra: return "produced, but not expected"
        case .error: return detail ?? "unreadable"
        }
    }

    /// The report line: `name: ok`, `name: DIFF 12 px (0.0004 %)`, `name: missing`, ….
    public var line: String {
        switch status {
        case .ok where differingPixels > 0:
            return "\(name): ok (\(differingPixels) px within tolerance)"
        case .ok: return "\(name): ok"
        case .diff:
            if let detail, detail.hasPrefix("plan changed: ") { return "\(name): \(detail)" }
            if let detail { return "\(name): DIFF \(detail)" }
            return "\(name): DIFF \(differingPixels) px (\(Self.percent(ratio)) %)"
        case .missing: return "\(name): missing"
        case .extra: return "\(name): extra"
        case .error: return "\(name): error: \(detail ?? "unreadable")"
        }
    }

    /// Whether this counts against a run: a difference, a missing or extra file, or an error.
    var failed: Bool { status != .ok }

    static func percent(_ ratio: Double) -> String {
        let value = ratio * 100
        if value >= 0.01 { return String(format: "%.2f", value) }
        return String(format: "%.4g", value)
    }
}

extension FileComparison.Status {
    /// The status as reports name it: `ok`, `diff`, `missing`, `extra`, `error`.
    var name: String {
        switch self {
        case .ok: return "ok"
        case .diff: return "diff"
        case .missing: return "missing"
        case .extra: return "extra"
        case .error: return "error"
        }
    }
}
