import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// `--split-wide` and `--crop-borders` (SPEC §3b): which pages are cut, the
/// measuring decode, and drawing a box of a page.
///
/// A cut page is measured and drawn from one decode: the page decoded at
/// ``cutDecodeSize(page:)``, a size that depends only on the page and the
/// options, so the plan that measures it and the render that draws it see
/// the same pixels. `render` draws each page's boxes in the decode that
/// measured them (``DrawnAhead``), so a cut page is decoded once.
extension BookPlan {
    /// The pages `options` cut, each with its cut: every wide page with
    /// `--split-wide`, every page with `--crop-borders`. Pixels are read
    /// (on `jobs` threads) only when something is measured; up to `budget`
    /// bytes of boxes are drawn on the way, at the sizes this plan's
    /// spreads give them.
    /// - Throws: ``MihirakiError`` naming the first page that cannot be decoded.
    static func readCuts(_ plan: BookPlan, jobs: Int, budget: Int) throws -> (cuts: [Int: PageCut], drawn: DrawnAhead?) {
        let options = plan.options
        guard options.cutsPages else { return ([:], nil) }
        let cutPages = (1...plan.pages.count).filter { options.cropBorders || plan.decisions.wide[$0] != nil }
        guard options.cropBorders || options.splitWide == .auto else {
            return (Dictionary(uniqueKeysWithValues: cutPages.map { ($0, plan.cut(page: $0, sample: nil)) }), nil)
        }
        let cut = Set(cutPages)
        // The static plan's spreads that hold a cut page: each is measured and drawn as one job.
        let jobsList = plan.entries.filter { $0.spread.pages.contains(where: cut.contains) }
        var spent = 0
        let drawing = jobsList.map { entry -> Bool in
            // A box is drawn larger than its page would be, by at most the part cropping removes.
            let bytes = entry.slots.reduce(0) { $0 + $1.rect.width * $1.rect.height } * plan.canvasChannels(entry) * 2
            guard spent + bytes <= budget else { return false }
            spent += bytes
            return true
        }
        let results = ParallelMap.run(jobsList.count, jobs: jobs) { index -> Result<([Int: PageCut], [Leaf: PixelBuffer]), MihirakiError> in
            let entry = jobsList[index]
            var cuts: [Int: PageCut] = [:], samples: [Int: PixelBuffer] = [:]
            for number in entry.spread.pages where cut.contains(number) {
                let page = plan.pages[number - 1]
                do {
                    let sample = try plan.decodeForCutting(page: number, bytes: try plan.book.read(page))
                    cuts[number] = plan.cut(page: number, sample: sample)
                    samples[number] = sample
                } catch {
                    return .failure(MihirakiError.from(error, path: plan.book.displayPath(page)))
                }
            }
            guard drawing[index] else { return .success((cuts, [:])) }
            // Drawn as the final plan will place them: its spreads come from the same imposition.
            var drawn: [Leaf: PixelBuffer] = [:]
            let channels = plan.canvasChannels(entry)
            for spread in plan.shown(entry.spread, cuts: cuts) {
                for slot in plan.place(spread, cuts: cuts) {
                    guard let number = slot.leaf.pageNumber, let sample = samples[number], let box = cuts[number]?.box(for: slot.leaf),
                          slot.rect.width > 0, slot.rect.height > 0 else { continue }
                    var image = PixelBuffer(width: slot.rect.width, height: slot.rect.height, channels: channels)
                    plan.draw(sample, box: box, page: number, into: &image,
                              rect: PixelRect(x: 0, y: 0, width: image.width, height: image.height))
                    drawn[slot.leaf] = image
                }
            }
            return .success((cuts, drawn))
        }
        var cuts: [Int: PageCut] = [:], drawn: [Leaf: PixelBuffer] = [:]
        for result in results {
            let (someCuts, someDrawn) = try result.get()
            cuts.merge(someCuts) { first, _ in first }
            drawn.merge(someDrawn) { first, _ in first }
        }
        return (cuts, drawn.isEmpty ? nil : DrawnAhead(drawn))
    }

    /// Everything a cut depends on besides the page: a plan with other
    /// options measures again unless these are the same.
    var cutInputs: String {
        "\(options.splitWide?.rawValue ?? "off") \(options.cropBorders) \(options.cropLimit) \(canvas.width)x\(canvas.height) "
            + "\(options.layout) \(options.pageAspect) \(options.gap) \(options.colorManage) \(decisions.direction) "
            + "\(decisions.wide.keys.sorted())"
    }

    /// Page `number`'s cut under this plan's options, measured in `sample`.
    func cut(page number: Int, sample: PixelBuffer?) -> PageCut {
        let header = headers[number - 1]
        return PageCut.make(width: header.width, height: header.height,
                            split: decisions.wide[number] != nil ? options.splitWide : nil, direction: decisions.direction,
                            cropLimit: options.cropBorders ? options.cropLimit : nil, sample: sample)
    }

    /// The size a cut page is decoded at, at least: twice the largest it can
    /// be drawn (its page cropped by the limit on every side, across the
    /// whole spread), so measuring and drawing share one decode.
    func cutDecodeSize(page number: Int) -> (width: Int, height: Int) {
        let header = headers[number - 1]
        let frames = SlotFrames(options: options.geometry)
        let keep = options.cropBorders ? Double(100 - 2 * options.cropLimit) / 100 : 1
        let width = Double(max(header.width, 1)) * keep, height = Double(max(header.height, 1)) * keep
        let scale = min(frames.wide.width / width, frames.wide.height / height)
        return (Int((2 * width * scale).rounded(.up)), Int((2 * height * scale).rounded(.up)))
    }

    /// Page `number` decoded whole at ``cutDecodeSize(page:)``, in its own samples per pixel.
    func decodeForCutting(page number: Int, bytes: [UInt8]) throws -> PixelBuffer {
        if TestFault.planned != nil { TestFault.strike(drawing: book.displayPath(pages[number - 1])) }
        return try MihirakiError.wrapping(path: book.displayPath(pages[number - 1])) {
            try PageDecoder.withRows(bytes, maxPixels: options.maxPixels, colorManage: options.colorManage,
                                     atLeast: cutDecodeSize(page: number)) { width, height, channels, nextRow in
                try PixelBuffer(width: width, height: height, channels: channels) { pixels in
                    for y in 0..<height { try nextRow(pixels.baseAddress! + y * width * channels) }
                }
            }
        }
    }

    /// Resamples `box` (in the full page's pixels) of page `number`, decoded
    /// as `sample`, into `rect` of `target`, which lies inside it.
    func draw(_ sample: PixelBuffer, box: PixelRect, page number: Int, into target: inout PixelBuffer, rect: PixelRect) {
        let header = headers[number - 1]
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

    /// What the screen shows for `spread` once wide pages are cut: the two
    /// halves of a split page share its spread, or in single layout each is
    /// an image of its own, in reading order (visual order with `--strip`).
    func shown(_ spread: Spread, cuts: [Int: PageCut]) -> [Spread] {
        Self.shown(spread, cuts: cuts, direction: decisions.direction, options: options)
    }

    static func shown(_ spread: Spread, cuts: [Int: PageCut], direction: ReadingDirection, options: LayoutOptions) -> [Spread] {
        guard case .wide(let number) = spread, cuts[number]?.split != nil else { return [spread] }
        let rtl = direction == .rtl
        if options.layout == .single {
            return (rtl && options.strip ? [PageHalf.b, .a] : [.a, .b]).map { .singleHalf(number, $0) }
        }
        return [rtl ? .pair(left: .half(number, .b), right: .half(number, .a)) : .pair(left: .half(number, .a), right: .half(number, .b))]
    }

    /// Where `spread`'s pages go, each drawn as its box.
    func place(_ spread: Spread, cuts: [Int: PageCut]) -> [PlacedSlot] {
        Self.place(spread, cuts: cuts, headers: headers, options: options)
    }

    static func place(_ spread: Spread, cuts: [Int: PageCut], headers: [PageHeader], options: LayoutOptions) -> [PlacedSlot] {
        Layout.place(spread, pageSize: { leaf in
            guard let number = leaf.pageNumber else { return (1, 1) }
            if let box = cuts[number]?.box(for: leaf) { return (box.width, box.height) }
            return (headers[number - 1].width, headers[number - 1].height)
        }, oneScale: options.cropBorders, options: options.geometry)
    }
}
