import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// Measuring the pages `--split-wide auto` and `--crop-borders` cut (SPEC
/// §3b): each decoded once, at a size that depends only on the page and the
/// options (``CutRequest``), so the measuring and the render that draws the
/// page see the same pixels.
extension MeasuredBook {
    /// Every page of `requests` measured: a page already measured for the
    /// same request keeps its cut; the others are decoded and measured on
    /// `jobs` threads, each decode kept in `cache` (within its budget) for
    /// the render to draw from. A page that cannot be decoded keeps the cut
    /// its header gives, with a note saying why; its spread fails when drawn.
    func measuringCuts(_ requests: [Int: CutRequest], jobs: Int, keepingIn cache: PageCache?) -> [Int: MeasuredCut] {
        var measured = cuts
        let pending = largestFirst(requests.keys.filter { cuts[$0]?.request != requests[$0] })
        let results = ParallelMap.run(pending.count, jobs: jobs) { index -> MeasuredCut in
            let number = pending[index], request = requests[number]!
            let header = headers[number - 1]
            func cut(_ sample: PixelBuffer?) -> PageCut {
                PageCut.make(width: header.width, height: header.height, split: request.split, direction: request.direction,
                             cropLimit: request.cropLimit, sample: sample)
            }
            do {
                let sample = try readForCutting(page: number, request, timer: StageTimer(observer: nil), kept: cache != nil)
                let measured = cut(sample)
                cache?.keep(sample: sample, for: measured.split == nil ? [.page(number)] : [.half(number, .a), .half(number, .b)],
                            of: book.path)
                return MeasuredCut(request: request, cut: measured)
            } catch {
                let reason = MihirakiError.from(error, path: displayPath(page: number))
                var unmeasured = cut(nil)
                unmeasured.notes.append("not measured: \(reason)")
                return MeasuredCut(request: request, cut: unmeasured, failure: reason)
            }
        }
        for (number, result) in zip(pending, results) { measured[number] = result }
        return measured
    }

    /// Page `number` read and decoded whole as `request` asks, in its own
    /// samples per pixel, each stage timed. A decode `kept` until its page
    /// is drawn is fresh memory for as long: it is asked for in 2 MiB pages,
    /// which fault in 512 times fewer (``PixelBuffer/preferringHugePages(_:)``).
    func readForCutting(page number: Int, _ request: CutRequest, timer: StageTimer, kept: Bool = false) throws -> PixelBuffer {
        if TestFault.planned != nil { TestFault.strike(drawing: displayPath(page: number)) }
        let bytes = try timer.measure(.read) { try book.read(pages[number - 1]) }
        return try timer.measure(.decode) {
            try MihirakiError.wrapping(path: displayPath(page: number)) {
                try PageDecoder.withRows(bytes, maxPixels: request.maxPixels, colorManage: request.colorManage,
                                         atLeast: (request.decodeSize.width, request.decodeSize.height)) { width, height, channels, nextRow in
                    try PixelBuffer(width: width, height: height, channels: channels) { pixels in
                        if kept { PixelBuffer.preferringHugePages(pixels) }
                        for y in 0..<height { try nextRow(pixels.baseAddress! + y * width * channels) }
                    }
                }
            }
        }
    }
}
