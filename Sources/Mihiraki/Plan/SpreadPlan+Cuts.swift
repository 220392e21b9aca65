import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// `--split-wide` and `--crop-borders` (SPEC §3b) in the plan: which pages
/// are cut and what is asked of each, and where the cut pages go. The cuts
/// themselves are measured before the plan is made (``MeasuredBook``).
extension SpreadPlan {
    /// What `options` ask of each page they cut, by page number: every
    /// wide page with `--split-wide`, every page with `--crop-borders`.
    static func cutRequests(_ headers: [PageHeader], wide: Set<Int>, direction: ReadingDirection,
                            options: LayoutOptions) -> [Int: CutRequest] {
        guard options.cutsPages else { return [:] }
        var requests: [Int: CutRequest] = [:]
        for number in 1...headers.count where options.cropBorders || wide.contains(number) {
            requests[number] = CutRequest(decodeSize: cutDecodeSize(headers[number - 1], options: options),
                                          split: wide.contains(number) ? options.splitWide : nil, direction: direction,
                                          cropLimit: options.cropBorders ? options.cropLimit : nil,
                                          colorManage: options.colorManage, maxPixels: options.maxPixels)
        }
        return requests
    }

    /// Each cut page's cut: as measured for this very request, or, where
    /// nothing is measured (`--split-wide center` alone) or not yet, what
    /// the header alone gives.
    static func cuts(_ facts: MeasuredBook, _ requests: [Int: CutRequest], direction: ReadingDirection) -> [Int: PageCut] {
        var cuts: [Int: PageCut] = [:]
        for (number, request) in requests {
            if let measured = facts.cuts[number], measured.request == request {
                cuts[number] = measured.cut
            } else {
                let header = facts.headers[number - 1]
                cuts[number] = PageCut.make(width: header.width, height: header.height, split: request.split,
                                            direction: direction, cropLimit: request.cropLimit, sample: nil)
            }
        }
        return cuts
    }

    /// The size a cut page is decoded at, at least: twice the largest the
    /// whole page is drawn at, which is when it is cropped by the limit on
    /// every side and what is left fills the whole spread (aspect-fit, or
    /// each way with `--fit stretch`), so measuring and drawing share one
    /// decode and no box of it is drawn larger than decoded.
    static func cutDecodeSize(_ header: PageHeader, options: LayoutOptions) -> CutRequest.Size {
        let keep = options.cropBorders ? Double(100 - 2 * options.cropLimit) / 100 : 1
        // What is left at the limit has the page's aspect, so it is drawn as the page is.
        let drawn = Layout.draw((header.width, header.height), in: SlotFrames(options: options.geometry).wide,
                                fit: options.geometry.fit, anchor: .center)
        return CutRequest.Size(width: Int((2 * drawn.width / keep).rounded(.up)),
                               height: Int((2 * drawn.height / keep).rounded(.up)))
    }

    /// What the screen shows for `spread` once wide pages are cut: the two
    /// halves of a split page share its spread, or in single layout each is
    /// an image of its own, in reading order (visual order with `--strip`).
    static func shown(_ spread: Spread, cuts: [Int: PageCut], direction: ReadingDirection, options: LayoutOptions) -> [Spread] {
        guard case .wide(let number) = spread, cuts[number]?.split != nil else { return [spread] }
        let rtl = direction == .rtl
        if options.layout == .single {
            return (rtl && options.strip ? [PageHalf.b, .a] : [.a, .b]).map { .singleHalf(number, $0) }
        }
        return [rtl ? .pair(left: .half(number, .b), right: .half(number, .a)) : .pair(left: .half(number, .a), right: .half(number, .b))]
    }

    /// Where `spread`'s pages go, each drawn as its box.
    static func place(_ spread: Spread, cuts: [Int: PageCut], headers: [PageHeader], options: LayoutOptions) -> [PlacedSlot] {
        Layout.place(spread, pageSize: { leaf in
            guard let number = leaf.pageNumber else { return (1, 1) }
            if let box = cuts[number]?.box(for: leaf) { return (box.width, box.height) }
            return (headers[number - 1].width, headers[number - 1].height)
        }, oneScale: options.cropBorders, options: options.geometry)
    }
}
