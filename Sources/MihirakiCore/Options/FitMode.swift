/// How a page fills its slot.
public enum FitMode: String, CaseIterable, Sendable {
    /// Aspect-fit: the whole page visible, scaled up or down.
    case contain
    /// Fill the slot exactly, ignoring the page's aspect.
    case stretch
}
