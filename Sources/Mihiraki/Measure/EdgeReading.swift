import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// Reading every page's edges for `--pairing auto`.
extension MeasuredBook {
    /// Every page's edges, in page order, on `jobs` threads; with `drawing`,
    /// pages drawn in the same decodes and kept for the render
    /// (``PageCache``). The first page that cannot be decoded fails the book.
    func readingEdges(maxPixels: Int, jobs: Int, drawing: PageCache.Drawing? = nil) throws -> [PageEdges?] {
        let order = largestFirst(1...pages.count)
        let results = ParallelMap.run(order.count, jobs: jobs) { index -> Result<PageEdges?, MihirakiError> in
            let number = order[index]
            if TestFault.planned != nil { TestFault.strike(drawing: displayPath(page: number)) }
            return Result {
                let bytes = try book.read(pages[number - 1])
                if let drawing, let edges = try drawing.draw(page: number, bytes: bytes) { return edges }
                return try PageEdges.read(bytes, maxPixels: maxPixels)
            }.mapError { MihirakiError.from($0, path: displayPath(page: number)) }
        }
        // In page order again, so the first page that fails is the one named.
        var byPage = [Result<PageEdges?, MihirakiError>?](repeating: nil, count: pages.count)
        for (number, result) in zip(order, results) { byPage[number - 1] = result }
        return try byPage.map { try $0!.get() }
    }
}

extension PageCache {
    /// Pages drawn while their edges are read: each page the plan without
    /// pairing places whole, at that rectangle's size and in its canvas's
    /// layout, in page order until the cache's budget is spent.
    struct Drawing: Sendable {
        private let renderer: SpreadRenderer
        private let targets: [Int: (width: Int, height: Int, channels: Int)]
        private let cache: PageCache
        var maxPixels: Int { renderer.plan.options.maxPixels }

        init(_ plan: SpreadPlan, into cache: PageCache) {
            var targets: [Int: (width: Int, height: Int, channels: Int)] = [:]
            for entry in plan.entries {
                let channels = plan.canvasChannels(entry)
                for slot in entry.slots {
                    guard case .page(let number) = slot.leaf, slot.rect.width > 0, slot.rect.height > 0,
                          cache.reserve(slot.rect.width * slot.rect.height * channels) else { continue }
                    targets[number] = (slot.rect.width, slot.rect.height, channels)
                }
            }
            self.renderer = SpreadRenderer(plan: plan, cache: nil)
            self.targets = targets
            self.cache = cache
        }

        /// Page `number` drawn from `bytes` and kept, and its edges; nil for a page not drawn.
        func draw(page number: Int, bytes: [UInt8]) throws -> PageEdges?? {
            guard let target = targets[number] else { return nil }
            var image = PixelBuffer(width: target.width, height: target.height, channels: target.channels)
            let request = PageEdges.request()
            try renderer.draw(page: number, bytes: bytes, into: &image,
                              rect: PixelRect(x: 0, y: 0, width: target.width, height: target.height),
                              timer: StageTimer(observer: nil), edges: request)
            cache.keep(drawn: image, for: .page(number), of: renderer.plan.book.path)
            // Rows come from the coefficients only for a page upright as stored.
            guard let rows = request.rows else { return .some(try PageEdges.read(bytes, maxPixels: maxPixels)) }
            return .some(PageEdges(rows, width: renderer.plan.headers[number - 1].storedWidth))
        }
    }
}
