import Testing

/// What a suite exercises: every suite carries one of these and a time
/// limit, so a slow or hung suite fails by its name instead of stalling CI.
extension Tag {
    /// Pure value code: imposition, geometry, pixels, no I/O.
    @Tag public static var unit: Self
    /// Decoders and encoders against reference files and tools.
    @Tag public static var codecs: Self
    /// The library end to end: books, plans, renders, comparison.
    @Tag public static var library: Self
    /// The server, in-process.
    @Tag public static var server: Self
    /// The built `mihiraki` run as a user runs it.
    @Tag public static var process: Self
    /// Headless Chromium.
    @Tag public static var browser: Self
    /// Load and signals against a real server process (wrk, curl, SIGTERM).
    @Tag public static var load: Self
}
