import CMihirakiCodecs
import MihirakiRaster

extension PageDecoder {
    static func openPNG<T>(_ bytes: [UInt8], _ body: (OpenedPage) throws -> T) throws -> T {
        try bytes.withUnsafeBytes { raw in
            var info = mh_png_info()
            var error = mh_error()
            guard let reader = mh_png_open(raw.baseAddress, raw.count, &info, &error) else {
                throw CodecError(error)
            }
            defer { mh_png_close(reader) }
            let width = Int(info.width), height = Int(info.height), channels = Int(info.channels)
            let header = PageHeader(format: .png, storedWidth: width, storedHeight: height, orientation: 1,
                                    isGray: channels <= 2)
            if info.interlaced != 0 {
                // Interlaced rows only exist once every pass is read: decode whole.
                var whole: PixelBuffer?
                var line = 0
                return try body(OpenedPage(header: header, channels: channels, streams: false) { row in
                    if whole == nil {
                        whole = try PixelBuffer(width: width, height: height, channels: channels) { out in
                            guard mh_png_read(reader, out.baseAddress, width * channels, &error) == MH_OK else {
                                throw CodecError(error)
                            }
                        }
                    }
                    whole!.pixels.withUnsafeBufferPointer {
                        row.update(from: $0.baseAddress! + line * width * channels, count: width * channels)
                    }
                    line += 1
                })
            }
            return try body(OpenedPage(header: header, channels: channels, streams: true) { row in
                guard mh_png_read_row(reader, row, &error) == MH_OK else { throw CodecError(error) }
            })
        }
    }
}
