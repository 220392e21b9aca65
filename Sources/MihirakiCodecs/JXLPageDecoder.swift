import CMihirakiCodecs

/// JPEG XL through libjxl: lossless and lossy, gray, alpha; libjxl applies
/// the orientation, so the header is already upright.
enum JXLPageDecoder: PageFormatDecoder {
    static func open<T>(_ bytes: [UInt8], _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T {
        try withReader(bytes, mh_jxl_info(), open: mh_jxl_open, close: mh_jxl_close) { reader, info in
            var error = mh_error()
            let gray = info.gray != 0
            let channels = (gray ? 1 : 3) + (info.has_alpha != 0 ? 1 : 0)
            let header = PageHeader(format: .jpegXL, storedWidth: Int(info.width), storedHeight: Int(info.height),
                                    orientation: 1, isGray: gray)
            let profile = copied(info.icc, count: info.icc_size)
            return try body(.whole(header: header, channels: channels, profile: profile) { pixels, stride in
                let size = stride * header.storedHeight
                guard mh_jxl_read(reader, pixels, size, Int32(channels), &error) == MH_OK else { throw CodecError(error) }
            })
        }
    }
}

extension ImageFormat {
    /// JPEG XL pages, read by ``JXLPageDecoder``.
    package static let jpegXL = ImageFormat(
        id: "jpeg-xl", name: "JPEG XL", extensions: ["jxl"], mimeType: "image/jxl",
        signatures: [.bytes([0xFF, 0x0A]), .bytes([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20])], decoder: JXLPageDecoder.self,
        capabilities: Capabilities(alpha: true, lossless: true, gray: true, streamed: false, largestSide: 1 << 30))
}
