import CMihirakiCodecs

/// GIF through giflib: the first frame on the logical screen, RGBA.
enum GIFPageDecoder: PageFormatDecoder {
    static func open<T>(_ bytes: [UInt8], _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T {
        try withReader(bytes, mh_gif_info(), open: mh_gif_open, close: mh_gif_close) { reader, info in
            var error = mh_error()
            let header = PageHeader(format: .gif, storedWidth: Int(info.width), storedHeight: Int(info.height),
                                    orientation: 1, isGray: false)
            return try body(.whole(header: header, channels: 4) { pixels, stride in
                guard mh_gif_read(reader, pixels, stride, &error) == MH_OK else { throw CodecError(error) }
            })
        }
    }
}

extension ImageFormat {
    /// GIF pages, read by ``GIFPageDecoder``.
    package static let gif = ImageFormat(
        id: "gif", name: "GIF", extensions: ["gif"], mimeType: "image/gif",
        signatures: [.text("GIF8")], decoder: GIFPageDecoder.self,
        capabilities: Capabilities(alpha: true, lossless: true, gray: true, streamed: false, largestSide: 65535))
}
