import MihirakiCore
import MihirakiRaster

/// The verdict on one page slot's pixels (SPEC §5b): the same, moved by a
/// few pixels (registration within the tolerance), or changed, with the
/// regions that differ; and on a spread's background.
enum SlotMatch {
    /// Compares a page as each side drew it (straight RGBA). A page drawn
    /// at another size is compared at the expected side's size.
    static func judge(expected: PixelBuffer, actual: PixelBuffer, options: ImageComparator.Options,
                      tolerance: Int) -> BookComparison.Slot {
        var slot = BookComparison.Slot(page: nil, file: "", side: "", verdict: .same)
        let resized = actual.width != expected.width || actual.height != expected.height
        let actual = resized ? LanczosResampler.resample(actual, width: expected.width, height: expected.height).straightRGBA : actual
        if actual.pixels == expected.pixels { return slot }
        let match = PixelMatch.compare(expected, actual, options: options.pixel)
        if withinBudget(match.differing, of: expected, options) {
            slot.differingPixels = match.differing
            return slot
        }
        // A page drawn a pixel or two larger on the other side (each edge is
        // rounded on its own: a left and a right slot of 128.5 pixels are
        // drawn 128 and 129 wide) differs in every fine detail once
        // resampled; what a reader sees is compared at half the size.
        if resized && abs(actual.width - expected.width) <= 2 && abs(actual.height - expected.height) <= 2
            && expected.width >= 8 && expected.height >= 8 {
            let (w, h) = (expected.width / 2, expected.height / 2)
            let a = LanczosResampler.resample(expected, width: w, height: h).straightRGBA
            let b = LanczosResampler.resample(actual, width: w, height: h).straightRGBA
            let differing = PixelMatch.compare(a, b, options: options.pixel).differing
            if withinBudget(differing, of: a, options) { return slot }
        }
        // The content displaced by (dx, dy): actual(x + dx, y + dy) = expected(x, y) where both exist.
        // Every eighth row first: a shift that is wrong there is not tried whole.
        var best: (dx: Int, dy: Int, differing: Int)?
        search: for dy in -tolerance...tolerance {
            for dx in -tolerance...tolerance where (dx, dy) != (0, 0) {
                let w = expected.width - abs(dx), h = expected.height - abs(dy)
                guard w > 0, h > 0 else { continue }
                let areaA = PixelRect(x: max(0, -dx), y: max(0, -dy), width: w, height: h)
                let areaB = PixelRect(x: max(0, dx), y: max(0, dy), width: w, height: h)
                let sampled = PixelMatch.compare(expected.cropped(to: areaA, rowStep: 8), actual.cropped(to: areaB, rowStep: 8),
                                                 options: options.pixel).differing
                guard withinBudget(sampled, of: expected, options) else { continue }
                let differing = PixelMatch.compare(expected.cropped(to: areaA), actual.cropped(to: areaB), options: options.pixel).differing
                if differing < (best?.differing ?? Int.max) { best = (dx, dy, differing) }
                if differing == 0 { break search }
            }
        }
        if let best, withinBudget(best.differing, of: expected, options) {
            slot.verdict = .moved
            slot.shift = (best.dx, best.dy)
            return slot
        }
        slot.verdict = .changed
        slot.differingPixels = match.differing
        // The diff picture only for a page that changed: it tells where.
        slot.regions = regions(PixelMatch.compare(expected, actual, options: options.pixel, makeDiff: true).diffImage).map { ($0, $0) }
        return slot
    }

    /// The background and blanks of one spread: every pixel outside both
    /// sides' page rectangles.
    static func background(expected: PixelBuffer, actual: PixelBuffer, pages: [[Int]],
                           options: ImageComparator.Options) -> BookComparison.Slot {
        var slot = BookComparison.Slot(page: nil, file: "", side: "background", verdict: .same)
        guard expected.width == actual.width, expected.height == actual.height else { return slot }
        if actual.pixels == expected.pixels { return slot }
        let width = expected.width
        var ignore = [UInt8](repeating: 0, count: width * expected.height)
        ignore.withUnsafeMutableBufferPointer { mask in
            for rect in pages where rect.count == 4 {
                let x0 = min(max(0, rect[0]), width), x1 = min(max(x0, rect[0] + rect[2]), width)
                let y0 = min(max(0, rect[1]), expected.height), y1 = min(max(y0, rect[1] + rect[3]), expected.height)
                for y in y0..<y1 where x1 > x0 { (mask.baseAddress! + y * width + x0).update(repeating: 1, count: x1 - x0) }
            }
        }
        let match = PixelMatch.compare(expected, actual, options: options.pixel, ignore: ignore)
        slot.differingPixels = match.differing
        if !withinBudget(match.differing, of: expected, options) {
            slot.verdict = .changed
            let diff = PixelMatch.compare(expected, actual, options: options.pixel, ignore: ignore, makeDiff: true).diffImage
            slot.regions = regions(diff).map { ($0, $0) }
        }
        return slot
    }

    /// Whether `differing` pixels of `image` are within the per-slot budgets.
    static func withinBudget(_ differing: Int, of image: PixelBuffer, _ options: ImageComparator.Options) -> Bool {
        differing == 0 || differing <= options.maxDiffPixels
            || Double(differing) <= options.maxDiffRatio * Double(image.width * image.height)
    }

    /// The boxes of the connected groups of differing pixels (red in
    /// PixelMatch's diff picture), 8-connected, each grown over gaps of up
    /// to 8 pixels so one recoloured patch is one region; largest first.
    static func regions(_ diff: PixelBuffer?) -> [PixelRect] {
        guard let diff else { return [] }
        let w = diff.width, h = diff.height, gap = 8
        var marked = [Bool](repeating: false, count: w * h)
        for i in 0..<(w * h) where diff.pixels[4 * i] == 255 && diff.pixels[4 * i + 1] == 0 && diff.pixels[4 * i + 2] == 0 {
            marked[i] = true
        }
        var seen = [Bool](repeating: false, count: w * h)
        var boxes: [PixelRect] = []
        for start in 0..<(w * h) where marked[start] && !seen[start] {
            var stack = [start], x0 = w, y0 = h, x1 = -1, y1 = -1
            seen[start] = true
            while let i = stack.popLast() {
                let x = i % w, y = i / w
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
                for ny in max(0, y - gap)...min(h - 1, y + gap) {
                    for nx in max(0, x - gap)...min(w - 1, x + gap) where marked[ny * w + nx] && !seen[ny * w + nx] {
                        seen[ny * w + nx] = true
                        stack.append(ny * w + nx)
                    }
                }
            }
            boxes.append(PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1))
        }
        return boxes.sorted { $0.width * $0.height > $1.width * $1.height }
    }
}

extension PixelBuffer {
    /// The pixels of `rect` (clipped to the buffer) as a buffer of their
    /// own; with `rowStep`, only every `rowStep`-th of its rows.
    func cropped(to rect: PixelRect, rowStep: Int = 1) -> PixelBuffer {
        let x0 = min(max(rect.x, 0), width), y0 = min(max(rect.y, 0), height)
        let x1 = min(max(rect.x + rect.width, x0), width), y1 = min(max(rect.y + rect.height, y0), height)
        let rows = stride(from: y0, to: y1, by: max(rowStep, 1)).map { $0 }
        var out = PixelBuffer(width: max(x1 - x0, 1), height: max(rows.count, 1), channels: channels)
        guard x1 > x0, !rows.isEmpty else { return out }
        let span = (x1 - x0) * channels
        out.pixels.withUnsafeMutableBufferPointer { target in
            pixels.withUnsafeBufferPointer { source in
                for (k, y) in rows.enumerated() {
                    (target.baseAddress! + k * span).update(from: source.baseAddress! + y * rowBytes + x0 * channels, count: span)
                }
            }
        }
        return out
    }
}

extension PixelRect {
    /// This rectangle moved by `origin`'s corner: from a page's pixels to the canvas's.
    func offset(by origin: PixelRect) -> PixelRect { PixelRect(x: x + origin.x, y: y + origin.y, width: width, height: height) }
}
