import CMihirakiCodecs
import MihirakiRaster

extension PageDecoder {
    /// An open decoder: the header is read, the pixels not yet.
    package struct OpenedPage {
        private(set) var header: PageHeader
        /// Samples per pixel as delivered (CMYK is delivered as RGB).
        let channels: Int
        /// Rows can be read one at a time (not an interlaced PNG).
        package let streams: Bool
        /// Writes the next stored row.
        let readRow: (UnsafeMutablePointer<UInt8>) throws -> Void
        /// The embedded ICC profile, when the file has one.
        var profile: [UInt8]? = nil
        /// Shrink-on-load, for formats that can: asks the decoder, before the
        /// first row, for the smallest size it offers that is at least the
        /// given stored width and height, and returns the size it will deliver.
        var reduce: ((Int, Int) throws -> (width: Int, height: Int))? = nil
        /// The page is drawn at whatever size is asked (a PDF page for the
        /// rasteriser): shrink-on-load asks for exactly the drawn size, larger
        /// or smaller than the stored one.
        var scalable = false
        /// Pairing's edges from what the decoder holds anyway (a JPEG's
        /// coefficients), before the first row, for a page read at full
        /// size or reduced: `nil` from it when the page has none to offer.
        var edges: ((_ depth: Int, _ stripDepth: Int) throws -> EdgeRows?)? = nil
        /// For pages whose colour management is the decoder's own business
        /// (CMYK through its profile): the page as `colorManaged()` gives it.
        var managed: (() -> OpenedPage)? = nil
        /// For pages decoded whole, whose header cannot say whether they are
        /// gray (WebP, AVIF, JPEG XL, GIF): decodes the page, once the caller
        /// has checked its size, and returns it as it is, one sample a pixel
        /// when the picture is gray. See ``settled()``.
        var settle: (() throws -> OpenedPage)? = nil

        init(header: PageHeader, channels: Int, streams: Bool, profile: [UInt8]? = nil,
             reduce: ((Int, Int) throws -> (width: Int, height: Int))? = nil,
             readRow: @escaping (UnsafeMutablePointer<UInt8>) throws -> Void) {
            self.header = header
            self.channels = channels
            self.streams = streams
            self.profile = profile
            self.reduce = reduce
            self.readRow = readRow
        }

        /// The page decoded at the smallest size its format offers that is at
        /// least `width × height` (stored orientation); itself when the format
        /// offers none or the page is not larger than that.
        func reduced(toAtLeast width: Int, _ height: Int) throws -> OpenedPage {
            guard let reduce, scalable || width < header.storedWidth || height < header.storedHeight else { return self }
            var page = self
            (page.header.storedWidth, page.header.storedHeight) = try reduce(max(width, 1), max(height, 1))
            page.reduce = nil
            return page
        }
        /// A page whose format is decoded whole: `decode` fills a buffer of
        /// stored rows (`stride` bytes each) on the first row asked for, which
        /// is after the caller has checked the size against its pixel limit.
        /// Settled, it is decoded at once and delivered as gray when every
        /// pixel's colour samples are equal (and, with alpha, opaque).
        static func whole(header: PageHeader, channels: Int, profile: [UInt8]? = nil,
                          decode: @escaping (UnsafeMutablePointer<UInt8>, Int) throws -> Void) -> OpenedPage {
            let stride = header.storedWidth * channels
            func decodeAll() throws -> [UInt8] {
                try [UInt8](unsafeUninitializedCapacity: stride * header.storedHeight) { buffer, count in
                    try decode(buffer.baseAddress!, stride)
                    count = stride * header.storedHeight
                }
            }
            var next: ((UnsafeMutablePointer<UInt8>) throws -> Void)?
            var marked = header
            marked.grayOnceDecoded = !header.isGray && header.orientation == 1
            var page = OpenedPage(header: marked, channels: channels, streams: false, profile: profile) { row in
                if next == nil { next = rows(of: try decodeAll(), channels: channels, width: header.storedWidth) }
                try next!(row)
            }
            page.settle = {
                var image = try decodeAll()
                let gray = channels >= 3
                    && PixelBuffer.compactIfGray(&image, count: header.storedWidth * header.storedHeight, channels: channels)
                let delivered = gray ? 1 : channels
                return OpenedPage(header: header, channels: delivered, streams: true, profile: gray ? nil : profile,
                                  readRow: rows(of: image, channels: delivered, width: header.storedWidth))
            }
            return page
        }

        /// Hands out the rows of a decoded image, top to bottom.
        static func rows(of image: [UInt8], channels: Int, width: Int) -> (UnsafeMutablePointer<UInt8>) throws -> Void {
            let stride = width * channels
            var line = 0
            return { row in
                image.withUnsafeBufferPointer { row.update(from: $0.baseAddress! + line * stride, count: stride) }
                line += 1
            }
        }

        /// The page as its decoder finds it once decoded (see ``settle``);
        /// itself for pages whose header already says.
        func settled() throws -> OpenedPage { try settle?() ?? self }

        /// Every row, in stored orientation.
        func readAll() throws -> PixelBuffer {
            try PixelBuffer(width: header.storedWidth, height: header.storedHeight, channels: channels) { out in
                for y in 0..<header.storedHeight { try readRow(out.baseAddress! + y * header.storedWidth * channels) }
            }
        }
    }
}
