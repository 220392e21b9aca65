import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster
import Synchronization

/// `--split-wide` and `--crop-borders` (SPEC §3b): which pages are cut, the
/// measuring decode, and drawing a box of a page.
///
/// A cut page is measured and drawn from one decode: the page decoded at
/// ``cutDecodeSize(page:)``, a size that depends only on the page and the
/// options, so the plan that measures it and the render that draws it see
/// the same pixels. A plan made to be rendered (``CutsAtRender``) leaves the
/// measuring to the render of each spread, which draws the pages straight
/// from the decode that measured them: one decode a page, and no page held
/// between planning and drawing.
extension BookPlan {
    /// The pages `options` cut, each with its cut: every wide page with
    /// `--split-wide`, every page with `--crop-borders`. With `measuring`,
    /// pixels are read (on `jobs` threads) where the cut depends on them;
    /// otherwise each cut is what the page's header alone gives.
    /// - Throws: ``MihirakiError`` naming the first page that cannot be decoded.
    static func readCuts(_ plan: BookPlan, jobs: Int, measuring: Bool) throws -> [Int: PageCut] {
        let options = plan.options
        guard options.cutsPages else { return [:] }
        let cutPages = (1...plan.pages.count).filter { options.cropBorders || plan.decisions.wide[$0] != nil }
        guard measuring && options.cutsReadPixels else {
            return Dictionary(uniqueKeysWithValues: cutPages.map { ($0, plan.cut(page: $0, sample: nil)) })
        }
        let results = ParallelMap.run(cutPages.count, jobs: jobs) { index -> Result<PageCut, MihirakiError> in
            let number = cutPages[index]
            return Result { try plan.measure(page: number).cut }
                .mapError { MihirakiError.from($0, path: plan.book.displayPath(plan.pages[number - 1])) }
        }
        var cuts: [Int: PageCut] = [:]
        for (number, result) in zip(cutPages, results) { cuts[number] = try result.get() }
        return cuts
    }

    /// Page `number` decoded for cutting and its cut measured in that decode.
    func measure(page number: Int, timer: StageTimer = StageTimer(observer: nil)) throws -> (cut: PageCut, sample: PixelBuffer) {
        let sample = try readForCutting(page: number, timer: timer)
        return (cut(page: number, sample: sample), sample)
    }

    /// Page `number` read and decoded at ``cutDecodeSize(page:)``, each stage timed.
    func readForCutting(page number: Int, timer: StageTimer) throws -> PixelBuffer {
        let bytes = try timer.measure(.read) { try book.read(pages[number - 1]) }
        return try timer.measure(.decode) { try decodeForCutting(page: number, bytes: bytes) }
    }

    /// The slots of `entry` and the cuts they are drawn with: the plan's;
    /// or, where the render measures the cuts (``cutsAtRender``), its cut
    /// pages measured now, each decode kept in `samples` to draw from.
    func slotsAndCuts(_ entry: Entry, samples: inout [Int: PixelBuffer],
                      timer: StageTimer) throws -> (slots: [PlacedSlot], cuts: [Int: PageCut]) {
        guard let cutsAtRender, entry.spread.pages.contains(where: { cuts[$0] != nil }) else { return (entry.slots, cuts) }
        var measured = cuts
        // A split page's two halves share one decode.
        for number in entry.spread.pages where cuts[number] != nil && samples[number] == nil {
            try MihirakiError.wrapping(path: book.displayPath(pages[number - 1])) {
                let (cut, sample) = try measure(page: number, timer: timer)
                samples[number] = sample
                measured[number] = cut
                cutsAtRender.record(cut, page: number)
            }
        }
        return (place(entry.spread, cuts: measured), measured)
    }

    /// This plan with every cut measured: itself, unless its render measures
    /// them (``cutsAtRender``); then the cuts the render measured, and those
    /// of pages it has not drawn measured now (a page that cannot be decoded
    /// keeps its header's cut, with a note saying why).
    var settled: BookPlan {
        guard let cutsAtRender else { return self }
        var measured = cuts
        for number in cuts.keys.sorted() {
            if let cut = cutsAtRender.cut(page: number) {
                measured[number] = cut
                continue
            }
            do {
                let cut = try measure(page: number).cut
                cutsAtRender.record(cut, page: number)
                measured[number] = cut
            } catch {
                let reason = MihirakiError.from(error, path: book.displayPath(pages[number - 1]))
                measured[number]?.notes.append("not measured: \(reason)")
            }
        }
        return with(cuts: measured)
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

    /// The size a cut page is decoded at, at least: twice the largest the
    /// whole page is drawn at, which is when it is cropped by the limit on
    /// every side and what is left fills the whole spread (aspect-fit, or
    /// each way with `--fit stretch`), so measuring and drawing share one
    /// decode and no box of it is drawn larger than decoded.
    func cutDecodeSize(page number: Int) -> (width: Int, height: Int) {
        let header = headers[number - 1]
        let keep = options.cropBorders ? Double(100 - 2 * options.cropLimit) / 100 : 1
        // What is left at the limit has the page's aspect, so it is drawn as the page is.
        let drawn = Layout.draw((header.width, header.height), in: SlotFrames(options: options.geometry).wide,
                                fit: options.geometry.fit, anchor: .center)
        return (Int((2 * drawn.width / keep).rounded(.up)), Int((2 * drawn.height / keep).rounded(.up)))
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

/// The cuts of a plan made to be rendered, as the render measures them: a
/// cut page is measured in the decode that draws it, so nothing is decoded
/// twice or held from planning to drawing. The plan's text and manifest
/// (``BookPlan/settled``) use them, and measure any page not yet drawn.
final class CutsAtRender: Sendable {
    private let measured = Mutex<[Int: PageCut]>([:])

    func record(_ cut: PageCut, page: Int) { measured.withLock { $0[page] = $0[page] ?? cut } }

    func cut(page: Int) -> PageCut? { measured.withLock { $0[page] } }
}
