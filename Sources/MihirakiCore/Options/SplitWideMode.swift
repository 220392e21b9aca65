/// How `--split-wide` finds where to cut a wide page (SPEC §3b).
public enum SplitWideMode: String, CaseIterable, Codable, Sendable {
    /// At the fold found from the pixels: a gutter shadow or a join; the exact middle where nothing marks it.
    case auto
    /// Always at the exact middle, `x = floor(width / 2)`.
    case center
}
