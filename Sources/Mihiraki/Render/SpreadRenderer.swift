import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// Draws a plan's spreads. It only reads the plan: pages are decoded here,
/// or taken from the run's ``PageCache`` where the measuring kept them.
struct SpreadRenderer: Sendable {
    let plan: SpreadPlan
    /// Pages the run's measuring decoded, or nil to decode every page.
    let cache: PageCache?

    private var book: Book { plan.book }
    private var options: LayoutOptions { plan.options }

    /// ``renderSpread(at:)``, telling `observer` where the time goes.
    func render(at index: Int, observer: (any RenderObserver)?, deadline: RenderDeadline? = nil) throws -> PixelBuffer {
        let entries = plan.entries
        guard entries.indices.contains(index) else {
            throw MihirakiError(.usage, path: book.path, "has no spread at index \(index) (its \(entries.count) spreads are 0 to \(entries.count - 1))")
        }
        let timer = StageTimer(observer: observer, deadline: deadline)
        try timer.checkDeadline()
        observer?.spreadStarted()
        let entry = entries[index]
        let background = options.background, blank = options.blank
        let size = plan.canvas
        var canvas = PixelBuffer(width: size.width, height: size.height, channels: plan.canvasChannels(entry))
        canvas.fill(x: 0, y: 0, width: canvas.width, height: canvas.height, color: background.premultiplied)
        // The two halves of a split page are drawn from one decode of it.
        var samples: [Int: PixelBuffer] = [:]
        let slots = entry.slots
        for slot in slots {
            let rect = slot.rect
            switch slot.leaf {
            case .blank:
                canvas.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                            color: blank.premultipliedOver(background))
            case .page(let number), .half(let number, _):
                try draw(slot.leaf, page: number, into: &canvas, rect: rect, timer: timer, samples: &samples)
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

    /// Draws page `number` into `rect` of the canvas: the copy drawn while
    /// its edges were read, when the cache has one of that size; a cut
    /// page's boxes from the decode it was measured in; or else decoded row
    /// by row and resampled as the rows arrive (a worker never holds a whole
    /// decoded page).
    func draw(_ leaf: Leaf, page number: Int, into canvas: inout PixelBuffer, rect: PixelRect,
              timer: StageTimer, samples: inout [Int: PixelBuffer]) throws {
        let path = plan.facts.displayPath(page: number)
        if TestFault.planned != nil { TestFault.strike(drawing: path) }
        let inside = rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
            && rect.x + rect.width <= canvas.width && rect.y + rect.height <= canvas.height
        if inside, let drawn = cache?.takeDrawn(leaf, of: book.path, width: rect.width, height: rect.height, channels: canvas.channels) {
            timer.measure(.compose) { canvas.blit(drawn, x: rect.x, y: rect.y) }
            return
        }
        // A cut page is drawn from the decode it was measured in: the one the
        // measuring kept, or one made now for the spread (`samples`, by page number).
        let box = plan.cuts[number]?.box(for: leaf)
        func bytes() throws -> [UInt8] { try timer.measure(.read) { try book.read(plan.pages[number - 1]) } }
        func drawing(into target: inout PixelBuffer, rect: PixelRect) throws {
            guard let box else { return try draw(page: number, bytes: bytes(), into: &target, rect: rect, timer: timer) }
            if let kept = cache?.takeSample(leaf, of: book.path) { samples[number] = kept }
            if samples[number] == nil {
                samples[number] = try plan.facts.readForCutting(page: number, plan.cutRequests[number]!, timer: timer)
            }
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
        try MihirakiError.wrapping(path: plan.facts.displayPath(page: number)) {
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

    /// Resamples `box` (in the full page's pixels) of page `number`, decoded
    /// as `sample`, into `rect` of `target`, which lies inside it.
    func draw(_ sample: PixelBuffer, box: PixelRect, page number: Int, into target: inout PixelBuffer, rect: PixelRect) {
        let header = plan.headers[number - 1]
        let source = box.scaled(from: (header.width, header.height), to: (sample.width, sample.height))
        if target.channels == 1 && sample.channels >= 3 { target = target.expandedToRGB() }
        let channels = target.channels, background = options.background
        var row = 0
        sample.pixels.withUnsafeBufferPointer { pixels in
            LanczosResampler.draw(sourceWidth: source.width, sourceHeight: source.height, channels: channels,
                                  into: &target, x: rect.x, y: rect.y, width: rect.width, height: rect.height) { out in
                let start = pixels.baseAddress! + (source.y + row) * sample.rowBytes + source.x * sample.channels
                PixelBuffer.prepareRow(start, channels: sample.channels, into: out, canvasChannels: channels,
                                       count: source.width, over: background)
                row += 1
            }
        }
    }
}
