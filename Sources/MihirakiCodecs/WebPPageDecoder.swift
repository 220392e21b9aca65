import CMihirakiCodecs

/// WebP through libwebp: lossy, lossless, alpha; an animation's first frame.
enum WebPPageDecoder: PageFormatDecoder {
    static func open<T>(_ bytes: [UInt8], _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T {
        var info = mh_webp_info()
        var error = mh_error()
        // The profile points into the bytes: copied while they are pinned.
        let profile = try bytes.withUnsafeBytes { raw -> [UInt8]? in
            guard mh_webp_probe(raw.baseAddress, raw.count, &info, &error) == MH_OK else { throw CodecError(error) }
            return copied(info.icc, count: info.icc_size)
        }
        info.icc = nil
        let channels = info.has_alpha != 0 || info.animated != 0 ? 4 : 3
        let header = PageHeader(format: .webp, storedWidth: Int(info.width), storedHeight: Int(info.height),
                                orientation: 1, isGray: false)
        let rgb = PageDecoder.OpenedPage.whole(header: header, channels: channels, profile: profile) { pixels, stride in
            let status = bytes.withUnsafeBytes { mh_webp_decode($0.baseAddress, $0.count, &info, pixels, stride, &error) }
            guard status == MH_OK else { throw CodecError(error) }
        }
        guard info.lossy != 0, info.has_alpha == 0, info.animated == 0 else { return try body(rgb) }
        // A lossy picture is gray when its chroma is neutral, which only its
        // YUV shows: libwebp's RGB of it is not exactly gray.
        var page = rgb
        page.settle = {
            var colour: Int32 = 0
            let opened = bytes.withUnsafeBytes { mh_webp_gray_open($0.baseAddress, $0.count, &colour, &error) }
            guard let opened else {
                if colour != 0 { return try rgb.settled() }
                throw CodecError(error)
            }
            let reader = GrayReader(opened)
            var line: UInt32 = 0
            return PageDecoder.OpenedPage(header: header, channels: 1, streams: true) { row in
                mh_webp_gray_row(reader.reader, line, row)
                line += 1
            }
        }
        return try body(page)
    }

    /// Owns the decoded planes while their rows are read (the file is no
    /// longer needed: the decode is complete when the reader is made).
    private final class GrayReader {
        let reader: OpaquePointer
        init(_ reader: OpaquePointer) { self.reader = reader }
        deinit { mh_webp_gray_close(reader) }
    }
}

extension ImageFormat {
    /// WebP pages, read by ``WebPPageDecoder``.
    package static let webp = ImageFormat(
        id: "webp", name: "WebP", extensions: ["webp"], mimeType: "image/webp",
        signatures: [Signature((0, Array("RIFF".utf8)), (8, Array("WEBP".utf8)))], decoder: WebPPageDecoder.self,
        capabilities: Capabilities(alpha: true, lossless: true, gray: true, streamed: false, largestSide: 16383))
}
