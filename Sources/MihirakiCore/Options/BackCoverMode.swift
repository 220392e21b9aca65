/// Whether the last page pairs like any other or stands alone as a back cover.
public enum BackCoverMode: String, CaseIterable, Sendable {
    /// The last page pairs like any other; a page left over sits alone on the left (`[6|x]`).
    case paired
    /// The last page, unless wide, sits alone on the left in a left-to-right
    /// book (`[N|x]`, mirrored in right to left), as Komga's reader shows a
    /// back cover; a page left without a partner before it gets a blank.
    case alone
}
