/// Whether page 1 stands alone as a cover (`[x|1] [2|3]`) or pairs (`[1|2]`).
public enum CoverMode: String, CaseIterable, Sendable {
    /// Page 1 alone, as a recto: `[x|1] [2|3]`.
    case alone
    /// No separate cover: `[1|2] [3|4]`.
    case paired
}
