import CMihirakiCodecs
import MihirakiRaster

/// PNG, any colour type and depth, through libpng; rows stream unless the
/// image is interlaced.
enum PNGPageDecoder: PageFormatDecoder {
    static func open<T>(_ bytes: [UInt8], maxPixels: Int?, _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T {
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
