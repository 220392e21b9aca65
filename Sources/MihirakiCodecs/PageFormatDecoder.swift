import CMihirakiCodecs

/// One page format behind one interface: a decoder opens the file's bytes,
/// reads the header without allocating pixel memory, and hands out rows on
/// demand (streamed where the format allows, decoded whole on the first row
/// otherwise). Each format is one file holding its decoder and its
/// ``ImageFormat`` declaration; ``ImageFormat/all`` lists the declarations.
protocol PageFormatDecoder: Sendable {
    /// Opens `bytes`, hands the open page to `body`, and always closes the decoder.
    static func open<T>(_ bytes: [UInt8], _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T
}

extension PageFormatDecoder {
    /// Opens one of the C shim's readers over `bytes` (header read, no pixels),
    /// hands it and its header to `body`, and always closes it.
    static func withReader<Info, T>(
        _ bytes: [UInt8], _ info: Info,
        open: (UnsafeRawPointer?, Int, UnsafeMutablePointer<Info>?, UnsafeMutablePointer<mh_error>?) -> OpaquePointer?,
        close: (OpaquePointer?) -> Void,
        _ body: (OpaquePointer, Info) throws -> T
    ) throws -> T {
        try bytes.withUnsafeBytes { raw in
            var info = info
            var error = mh_error()
            guard let reader = open(raw.baseAddress, raw.count, &info, &error) else { throw CodecError(error) }
            defer { close(reader) }
            return try body(reader, info)
        }
    }

    /// Bytes the C shim points at (an embedded profile), copied out while the
    /// reader that owns them is still open; `nil` when there are none.
    static func copied(_ bytes: UnsafePointer<UInt8>?, count: Int) -> [UInt8]? {
        bytes.map { Array(UnsafeBufferPointer(start: $0, count: count)) }
    }
}
