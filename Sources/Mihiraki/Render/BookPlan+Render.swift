import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

extension BookPlan {
    /// Renders spread `index` into memory, in the smallest exact output layout
    /// (gray, RGB or RGBA).
    ///
    /// - Parameter index: 0-based, below ``spreadCount``.
    /// - Returns: the spread's pixels, exactly what its file holds.
    /// - Throws: ``MihirakiError`` naming a page that cannot be read or
    ///   decoded; `.usage` for an index out of range.
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

    /// ``spreadFile(at:)`` with a deadline: the render stops before the next
    /// page or decoded row once `deadline` has passed, and nothing half-made
    /// is returned. (A page in a format that decodes whole, such as AVIF or a
    /// PDF page's rasterisation, and the final encode run to their end first.)
    ///
    /// - Throws: ``MihirakiError`` with code `.timedOut` past the deadline,
    ///   or naming a page that cannot be read or decoded.
    public func spreadFile(at index: Int, deadline: ContinuousClock.Instant) throws -> [UInt8] {
        let image = try renderSpread(at: index, observer: nil, deadline: .at(deadline))
        return try encode(image, path: entries[index].file)
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
    package func renderSpread(at index: Int, observer: (any RenderObserver)?,
                              deadline: RenderDeadline? = nil) throws -> PixelBuffer {
        guard entries.indices.contains(index) else {
            throw MihirakiError(.usage, path: book.path, "has no spread at index \(index) (its \(entries.count) spreads are 0 to \(entries.count - 1))")
        }
        let timer = StageTimer(observer: observer, deadline: deadline)
        try timer.checkDeadline()
        observer?.spreadStarted()
        let entry = entries[index]
        let background = options.background, blank = options.blank
        var canvas = PixelBuffer(width: canvas.width, height: canvas.height, channels: canvasChannels(entry))
        canvas.fill(x: 0, y: 0, width: canvas.width, height: canvas.height, color: background.premultiplied)
        // The two halves of a split page are drawn from one decode of it.
        var samples: [Int: PixelBuffer] = [:]
        let (slots, cuts) = try slotsAndCuts(entry, samples: &samples, timer: timer)
        for slot in slots {
            let rect = slot.rect
            switch slot.leaf {
            case .blank:
                canvas.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                            color: blank.premultipliedOver(background))
            case .page(let number), .half(let number, _):
                try draw(slot.leaf, page: number, cut: cuts[number], into: &canvas, rect: rect, timer: timer, samples: &samples)
                try timer.checkDeadline()
            }
        }
        // Where nothing but the background or a blank is drawn, the file
        // holds exactly the colour given, alpha included (SPEC §4).
        let blanks = slots.filter { $0.leaf == .blank }.map { (x: $0.rect.x, y: $0.rect.y, width: $0.rect.width, height: $0.rect.height) }
        let flat = [FlatColour(premultiplied: blank.premultipliedOver(background), straight: blank.over(background), within: blanks),
                    FlatColour(premultiplied: background.premultiplied, straight: background)]
        return timer.measure(.compose) { canvas.reducedForOutput(flat: flat) }
    }

    /// Samples per pixel of an entry's canvas. A gray canvas is exact only
    /// when everything drawn on it is gray and opaque; an opaque background
    /// makes an RGB canvas (pages with alpha are flattened onto it); only a
    /// see-through background needs RGBA.
    ///
    /// A page whose header cannot say whether it is gray (WebP, AVIF, JPEG
    /// XL, GIF: ``PageHeader/grayOnceDecoded``) counts as gray here; if it
    /// turns out to be colour when drawn, the canvas becomes RGB then
    /// (``PixelBuffer/expandedToRGB()``), which gives the same samples as an
    /// RGB canvas from the start. So a gray WebP book is drawn in one channel
    /// without decoding any page twice.
    func canvasChannels(_ entry: Entry) -> Int {
        let background = options.background
        let hasBlank = entry.slots.contains { $0.leaf == .blank }
        let grayCanvas = background.isGray && background.isOpaque && (!hasBlank || options.blank.isGray)
            && entry.spread.pages.allSatisfy { headers[$0 - 1].isGray || headers[$0 - 1].grayOnceDecoded }
        return grayCanvas ? 1 : (background.isOpaque ? 3 : 4)
    }

    /// Draws page `number` into `rect` of the canvas: the copy drawn while
    /// its edges were read, when there is one of that size, or else decoded
    /// row by row and resampled as the rows arrive (a worker never holds a
    /// whole decoded page).
    func draw(_ leaf: Leaf, page number: Int, cut: PageCut?, into canvas: inout PixelBuffer, rect: PixelRect,
              timer: StageTimer, samples: inout [Int: PixelBuffer]) throws {
        if TestFault.planned != nil { TestFault.strike(drawing: book.displayPath(pages[number - 1])) }
        let inside = rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
            && rect.x + rect.width <= canvas.width && rect.y + rect.height <= canvas.height
        if inside, let drawn = drawnAhead?.take(leaf, width: rect.width, height: rect.height, channels: canvas.channels) {
            timer.measure(.compose) { canvas.blit(drawn, x: rect.x, y: rect.y) }
            return
        }
        // A cut page is drawn from the decode it was measured in (BookPlan+Cutting),
        // made once for the spread (`samples`, by page number).
        let box = cut?.box(for: leaf)
        func bytes() throws -> [UInt8] { try timer.measure(.read) { try book.read(pages[number - 1]) } }
        func drawing(into target: inout PixelBuffer, rect: PixelRect) throws {
            guard let box else { return try draw(page: number, bytes: bytes(), into: &target, rect: rect, timer: timer) }
            if samples[number] == nil { samples[number] = try readForCutting(page: number, timer: timer) }
            let sample = samples[number]!
            timer.measure(.resample) { draw(sample, box: box, page: number, into: &target, rect: rect) }
        }
        if inside {
            try drawing(into: &canvas, rect: rect)
        } else {
            // Only with odd options can a rectangle reach outside the
            // canvas (or be empty): draw it alone, then clip.
            var alone = PixelBuffer(width: max(rect.width, 1), height: max(rect.height, 1), channels: canvas.channels)
            try drawing(into: &alone, rect: PixelRect(x: 0, y: 0, width: alone.width, height: alone.height))
            if alone.channels > canvas.channels { canvas = canvas.expandedToRGB() }
            if rect.width > 0 && rect.height > 0 { canvas.blit(alone, x: rect.x, y: rect.y) }
        }
    }

    /// Decodes page `number` from `bytes` and resamples it into `rect`,
    /// which lies inside `target`; with `edges`, the page's edges are read
    /// from the same decode where its format allows.
    func draw(page number: Int, bytes: [UInt8], into target: inout PixelBuffer, rect: PixelRect, timer: StageTimer,
              edges: PageDecoder.EdgeRequest? = nil) throws {
        let background = options.background
        let start = timer.now()
        var decoding: UInt64 = 0
        try MihirakiError.wrapping(path: book.displayPath(pages[number - 1])) {
            // Shrink-on-load: decoding at twice the drawn size leaves the
            // Lanczos pass all the detail the rectangle can show.
            let atLeast = (width: 2 * rect.width, height: 2 * rect.height)
            try PageDecoder.withRows(bytes, maxPixels: options.maxPixels, colorManage: options.colorManage,
                                     atLeast: atLeast, drawn: (rect.width, rect.height), edges: edges) { width, height, pageChannels, nextRow in
                // A page only its decode showed to be colour, on a canvas begun gray.
                if target.channels == 1 && pageChannels >= 3 { target = target.expandedToRGB() }
                let channels = target.channels
                var decoded = [UInt8](repeating: 0, count: width * pageChannels + LanczosResampler.rowSlack)
                try decoded.withUnsafeMutableBufferPointer { row in
                    try LanczosResampler.draw(sourceWidth: width, sourceHeight: height, channels: channels,
                                              into: &target, x: rect.x, y: rect.y, width: rect.width, height: rect.height) { out in
                        try timer.checkDeadline()
                        let t0 = timer.now()
                        if pageChannels == channels && channels != 4 {
                            try nextRow(out)  // already the canvas's layout: decoded in place, no copy
                        } else {
                            try nextRow(row.baseAddress!)
                            PixelBuffer.prepareRow(row.baseAddress!, channels: pageChannels, into: out,
                                                   canvasChannels: channels, count: width, over: background)
                        }
                        decoding &+= timer.now() &- t0
                    }
                }
            }
        }
        timer.add(.decode, decoding)
        timer.add(.resample, timer.now() &- start &- decoding)
    }
}
