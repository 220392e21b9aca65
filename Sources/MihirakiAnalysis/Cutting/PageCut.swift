import MihirakiRaster
import MihirakiCodecs
import MihirakiCore

/// How a page is cut before it is drawn (SPEC §3b): where a wide page is
/// split into its two halves, and the box `--crop-borders` keeps of the page
/// or of each half. Every position is in the page's pixels as decoded at
/// full size, upright (after EXIF).
package struct PageCut: Hashable, Sendable {
    /// Where a wide page is cut.
    package struct Split: Hashable, Sendable {
        /// The first column of the right half: the left half is columns `0..<x`.
        package var x: Int
        /// How sure the finder is of the fold, in thousandths.
        package var confidence: Int
        /// What decided `x`: the mark found, or the middle.
        package var reason: String
    }

    /// The split, or nil for a page left whole.
    package var split: Split?
    /// The box drawn of the whole page (no split), or of halves `a` and `b`, in that order.
    package var kept: [PixelRect]
    /// Whether `kept` is a box `--crop-borders` chose (else each part is drawn whole).
    package var cropped: Bool
    /// What `plan --explain` should say about a page left whole or uncropped.
    package var notes: [String] = []

    /// The box a leaf draws: the whole page's, or its half's.
    package func box(for leaf: Leaf) -> PixelRect? {
        switch leaf {
        case .page: return split == nil ? kept.first : nil
        case .half(_, let half): return split == nil ? nil : kept[half == .a ? 0 : 1]
        case .blank: return nil
        }
    }

    /// The smallest side `--split-wide` cuts to and `--crop-borders` crops.
    package static let smallestSide = 16

    /// The cut of a `width×height` page.
    ///
    /// - Parameters:
    ///   - split: how to split it, or nil to leave it whole.
    ///   - direction: which half is read first (`a`).
    ///   - cropLimit: `--crop-limit` in percent, or nil without `--crop-borders`.
    ///   - sample: the page decoded for measuring (nil with nothing to measure:
    ///     `center` without cropping); positions found in it are scaled to full size.
    package static func make(width: Int, height: Int, split mode: SplitWideMode?, direction: ReadingDirection,
                     cropLimit: Int?, sample: PixelBuffer?) -> PageCut {
        var notes: [String] = []
        var split: Split?
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        var parts = [whole]
        if let mode {
            if width < 2 * smallestSide || height < smallestSide {
                notes.append("left whole: under \(smallestSide) pixels a side is too small to split")
            } else {
                let middle = width / 2
                var found = Split(x: middle, confidence: 1000, reason: "center")
                if mode == .auto, let sample {
                    let gutter = GutterFinder.find(in: sample)
                    let x = min(max(scale(gutter.x, sample.width, width), smallestSide), width - smallestSide)
                    found = Split(x: x, confidence: gutter.confidence, reason: gutter.reason)
                }
                split = found
                let left = PixelRect(x: 0, y: 0, width: found.x, height: height)
                let right = PixelRect(x: found.x, y: 0, width: width - found.x, height: height)
                parts = direction == .rtl ? [right, left] : [left, right]
            }
        }
        guard let cropLimit, let sample else { return PageCut(split: split, kept: parts, cropped: false, notes: notes) }
        var kept: [PixelRect] = []
        for part in parts {
            guard part.width >= smallestSide, part.height >= smallestSide else {
                notes.append("not cropped: under \(smallestSide) pixels a side is too small to crop")
                kept.append(part)
                continue
            }
            kept.append(cropped(part, limit: cropLimit, sample: sample, fullWidth: width, fullHeight: height))
        }
        return PageCut(split: split, kept: kept, cropped: true, notes: notes)
    }

    /// The box kept of `part` (full-size pixels), its borders measured in
    /// `sample` and each side's at most `limit` percent of the part's side.
    private static func cropped(_ part: PixelRect, limit: Int, sample: PixelBuffer, fullWidth: Int, fullHeight: Int) -> PixelRect {
        let region = part.scaled(from: (fullWidth, fullHeight), to: (sample.width, sample.height))
        let limitX = part.width * limit / 100, limitY = part.height * limit / 100
        // One more sample line than the limit covers, so a border that reaches it is not cut short by rounding.
        let sampleLimitX = limitX * sample.width / max(fullWidth, 1) + 1
        let sampleLimitY = limitY * sample.height / max(fullHeight, 1) + 1
        let border = BorderFinder.borders(in: sample, region: region, limitX: sampleLimitX, limitY: sampleLimitY)
        let left = min(scale(border.left, sample.width, fullWidth), limitX)
        let right = min(scale(border.right, sample.width, fullWidth), limitX)
        let top = min(scale(border.top, sample.height, fullHeight), limitY)
        let bottom = min(scale(border.bottom, sample.height, fullHeight), limitY)
        return PixelRect(x: part.x + left, y: part.y + top, width: part.width - left - right, height: part.height - top - bottom)
    }

    /// `value` in a side `from` long, scaled to a side `to` long, rounded to the nearest pixel.
    package static func scale(_ value: Int, _ from: Int, _ to: Int) -> Int {
        from == to ? value : (value * to * 2 + from) / (2 * max(from, 1))
    }
}

extension PixelRect {
    /// This rectangle, in an image `from` big, scaled to one `to` big (each edge
    /// rounded on its own, at least one pixel wide and high).
    package func scaled(from: (width: Int, height: Int), to: (width: Int, height: Int)) -> PixelRect {
        let x0 = PageCut.scale(x, from.width, to.width), x1 = PageCut.scale(x + width, from.width, to.width)
        let y0 = PageCut.scale(y, from.height, to.height), y1 = PageCut.scale(y + height, from.height, to.height)
        let left = min(x0, to.width - 1), top = min(y0, to.height - 1)
        return PixelRect(x: left, y: top, width: max(min(x1, to.width) - left, 1), height: max(min(y1, to.height) - top, 1))
    }
}
