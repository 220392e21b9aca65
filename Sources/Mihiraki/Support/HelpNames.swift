import MihirakiCodecs

/// The lists of formats and book kinds the front ends' help texts name, each
/// derived from its registry (``SpreadFormat/allCases``, `ImageFormat.all`),
/// so a new format needs no hunt through help texts; book kinds name theirs
/// in `BookKind.extensionList`.
package enum HelpNames {
    /// "PNG, JPEG, WebP or AVIF": the formats spreads are written in.
    package static var spreadFormats: String { SpreadFormat.names() }
    /// ".jpg, .webp, .avif": the spread files' extensions but the default's.
    package static var otherSpreadExtensions: String {
        SpreadFormat.allCases.dropFirst().map { "." + $0.fileExtension }.joined(separator: ", ")
    }
    /// "PNG, JPEG, WebP, GIF, AVIF or JPEG XL": the page formats Mihiraki reads.
    package static var pageFormats: String { ImageFormat.readableNames(or: true) }
}
