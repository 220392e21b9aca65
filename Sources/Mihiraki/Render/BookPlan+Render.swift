import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

extension BookPlan {
    /// Renders spread `index` into memory, in the smallest exact output layout
    /// (gray, RGB or RGBA).
    ///
    /// - Parameter index: 0-based, below ``spreadCount``.
    /// - Returns: the spread's pixels, exactly what its file holds.
    /// - Throws: ``MihirakiError`` naming a page that cannot be read or decoded.
    public func renderSpread(at index: Int) throws -> PixelBuffer {
        try renderSpread(at: index, observer: nil)
    }

    /// Spread `index` as the bytes of its file: exactly what `render` writes,
    /// in the format ``LayoutOptions/encoding`` names.
    ///
    /// - Parameter index: 0-based, below ``spreadCount``.
    /// - Throws: ``MihirakiError`` naming a page that cannot be read or decoded.
    public func spreadFile(at index: Int) throws -> [UInt8] {
        try encode(try renderSpread(at: index), path: entries[index].file)
    }

    /// A rendered spread (or contact sheet) in the options' format. A JPEG
    /// cannot hold alpha: a see-through image is flattened onto the blank
    /// colour (made opaque) first. `path` names the file in errors.
    package func encode(_ image: PixelBuffer, path: String) throws -> [UInt8] {
        let encoding = options.encoding
        var image = image
        if !encoding.format.hasAlpha && image.channels == 4 {
            let paper = options.blank
            image = image.prepared(forCanvasChannels: 3, over: Color(red: paper.red, green: paper.green, blue: paper.blue))
                .reducedForOutput()
        }
        return try MihirakiError.wrapping(path: path) { try SpreadEncoder.encode(image, with: encoding) }
    }

    /// What a reader of spread `index`'s file sees: the rendered pixels for
    /// PNG; for the lossy formats, the file's bytes decoded again.
    package func spreadAsWritten(at index: Int) throws -> PixelBuffer {
        let image = try renderSpread(at: index)
        guard options.encoding.format != .png else { return image }
        let file = entries[index].file
        return try MihirakiError.wrapping(path: file) { try PageDecoder.decode(try encode(image, path: file), colorManage: false) }
    }

    /// ``renderSpread(at:)``, telling `observer` where the time goes.
    package func renderSpread(at index: Int, observer: (any RenderObserver)?) throws -> PixelBuffer {
        precondition(entries.indices.contains(index), "spread index out of range")
        let timer = StageTimer(observer: observer)
        observer?.spreadStarted()
        let entry = entries[index]
        let background = options.background, blank = options.blank
        let hasBlank = entry.slots.contains { $0.leaf == .blank }
        // A gray canvas is exact only when everything drawn on it is gray and
        // opaque; an opaque background makes an RGB canvas (pages with alpha
        // are flattened onto it); only a see-through background needs RGBA.
        let grayCanvas = background.isGray && background.isOpaque && (!hasBlank || blank.isGray)
            && entry.spread.pages.allSatisfy { headers[$0 - 1].isGray }
        let channels = grayCanvas ? 1 : (background.isOpaque ? 3 : 4)
        func samples(_ color: Color) -> [UInt8] {
            Array([color.red, color.green, color.blue, color.alpha].prefix(channels))
        }
        var canvas = PixelBuffer(width: canvas.width, height: canvas.height, channels: channels)
        canvas.fill(x: 0, y: 0, width: canvas.width, height: canvas.height, samples: samples(background.premultiplied))
        for slot in entry.slots {
            let rect = slot.rect
            switch slot.leaf {
            case .blank:
                canvas.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                            samples: samples(blank.premultipliedOver(background)))
            case .page(let number):
                try draw(page: number, into: &canvas, rect: rect, timer: timer)
            }
        }
        return timer.measure(.compose) { canvas.reducedForOutput() }
    }

    /// Decodes page `number` row by row and resamples it into `rect` as the
    /// rows arrive: a worker never holds a whole decoded page.
    func draw(page number: Int, into canvas: inout PixelBuffer, rect: PixelRect, timer: StageTimer) throws {
        let file = pages[number - 1]
        let bytes = try timer.measure(.read) { try book.read(file) }
        let background = options.background, channels = canvas.channels
        let start = timer.now()
        var decoding: UInt64 = 0
        try MihirakiError.wrapping(path: book.displayPath(file)) {
            // Shrink-on-load: decoding at twice the drawn size leaves the
            // Lanczos pass all the detail the rectangle can show.
            let atLeast = (width: 2 * max(rect.width, 1), height: 2 * max(rect.height, 1))
            try PageDecoder.withRows(bytes, maxPixels: options.maxPixels, colorManage: options.colorManage,
                                     atLeast: atLeast, drawn: (max(rect.width, 1), max(rect.height, 1))) { width, height, pageChannels, nextRow in
                let inside = rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
                    && rect.x + rect.width <= canvas.width && rect.y + rect.height <= canvas.height
                var decoded = [UInt8](repeating: 0, count: width * pageChannels + LanczosResampler.rowSlack)
                func drawRows(into target: inout PixelBuffer, x: Int, y: Int, width w: Int, height h: Int) throws {
                    try decoded.withUnsafeMutableBufferPointer { row in
                        try LanczosResampler.draw(sourceWidth: width, sourceHeight: height, channels: channels,
                                                  into: &target, x: x, y: y, width: w, height: h) { out in
                            let t0 = timer.now()
                            try nextRow(row.baseAddress!)
                            PixelBuffer.prepareRow(row.baseAddress!, channels: pageChannels, into: out,
                                                   canvasChannels: channels, count: width, over: background)
                            decoding &+= timer.now() &- t0
                        }
                    }
                }
                if inside {
                    try drawRows(into: &canvas, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
                } else {
                    // Only with odd options can a rectangle reach outside the
                    // canvas (or be empty): draw it alone, then clip.
                    var alone = PixelBuffer(width: max(rect.width, 1), height: max(rect.height, 1), channels: channels)
                    try drawRows(into: &alone, x: 0, y: 0, width: alone.width, height: alone.height)
                    if rect.width > 0 && rect.height > 0 { canvas.blit(alone, x: rect.x, y: rect.y) }
                }
            }
        }
        timer.add(.decode, decoding)
        timer.add(.resample, timer.now() &- start &- decoding)
    }
}
