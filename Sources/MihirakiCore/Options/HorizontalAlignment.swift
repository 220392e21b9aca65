/// Horizontal placement of a page inside its slot.
public enum HorizontalAlignment: String, CaseIterable, Sendable {
    /// Pushed against the spine so the two pages of a spread meet at the gutter.
    case spine
    /// Centred in the slot.
    case center
}
