import CMihirakiCodecs
import MihirakiRaster

/// PNG, any colour type and depth, through libpng; rows stream unless the
/// image is interlaced.
enum PNGPageDecoder: PageFormatDecoder {
    static func open<T>(_ bytes: [UInt8], _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T {
        try withReader(bytes, mh_png_info(), open: mh_png_open, close: mh_png_close) { reader, info in
            var error = mh_error()
            let width = Int(info.width), height = Int(info.height), channels = Int(info.channels)
            let profile = copied(info.icc, count: info.icc_size)
            let header = PageHeader(format: .png, storedWidth: width, storedHeight: height, orientation: 1,
                                    isGray: channels <= 2)
            if info.interlaced != 0 {
                // Interlaced rows only exist once every pass is read: decode whole.
                return try body(.whole(header: header, channels: channels, profile: profile) { pixels, stride in
                    guard mh_png_read(reader, pixels, stride, &error) == MH_OK else { throw CodecError(error) }
                })
            }
            return try body(PageDecoder.OpenedPage(header: header, channels: channels, streams: true, profile: profile) { row in
                guard mh_png_read_row(reader, row, &error) == MH_OK else { throw CodecError(error) }
            })
        }
    }
}

extension ImageFormat {
    /// PNG pages, read by ``PNGPageDecoder``.
    package static let png = ImageFormat(
        id: "png", name: "PNG", extensions: ["png"], mimeType: "image/png",
        signatures: [.bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])], decoder: PNGPageDecoder.self,
        capabilities: Capabilities(alpha: true, lossless: true, gray: true, streamed: true, largestSide: Int(Int32.max)))
}
