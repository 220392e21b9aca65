import CMihirakiCodecs

/// GIF through giflib: the first frame on the logical screen, RGBA.
enum GIFPageDecoder: PageFormatDecoder {
    static func open<T>(_ bytes: [UInt8], maxPixels: Int?, _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T {
        try bytes.withUnsafeBytes { raw in
            var info = mh_gif_info()
            var error = mh_error()
            guard let reader = mh_gif_open(raw.baseAddress, raw.count, &info, &error) else { throw CodecError(error) }
            defer { mh_gif_close(reader) }
            let header = PageHeader(format: .gif, storedWidth: Int(info.width), storedHeight: Int(info.height),
                                    orientation: 1, isGray: false)
            return try body(.whole(header: header, channels: 4) { pixels, stride in
                guard mh_gif_read(reader, pixels, stride, &error) == MH_OK else { throw CodecError(error) }
            })
        }
    }
}
