/// Spread (two pages per image) or single (one page per image, never a blank).
public enum LayoutMode: String, CaseIterable, Codable, Sendable {
    /// Two pages per image, as an open book shows them.
    case spread
    /// One page per image, never a blank.
    case single
}
