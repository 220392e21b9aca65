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
        return try body(.whole(header: header, channels: channels, profile: profile) { pixels, stride in
            let status = bytes.withUnsafeBytes { mh_webp_decode($0.baseAddress, $0.count, &info, pixels, stride, &error) }
            guard status == MH_OK else { throw CodecError(error) }
        })
    }
}

extension ImageFormat {
    /// WebP pages, read by ``WebPPageDecoder``.
    package static let webp = ImageFormat(
        id: "webp", name: "WebP", extensions: ["webp"], mimeType: "image/webp",
        signatures: [Signature((0, Array("RIFF".utf8)), (8, Array("WEBP".utf8)))], decoder: WebPPageDecoder.self,
        capabilities: Capabilities(alpha: true, lossless: true, gray: false, streamed: false, largestSide: 16383))
}
