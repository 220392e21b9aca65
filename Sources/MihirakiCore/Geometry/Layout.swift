/// Where each page and blank of a spread is drawn (Mihiraki.docc/GeometryAndRounding.md). Pure.
package enum Layout {
    /// The drawn rectangles of one spread, listed left to right.
    ///
    /// - Parameters:
    ///   - spread: which pages and blanks the image shows.
    ///   - pageSize: width and height in pixels (after EXIF orientation) of
    ///     what a leaf draws: a page, a half of a wide page, or the box
    ///     `--crop-borders` keeps of either.
    ///   - oneScale: the two pages of a pair are drawn at the smaller of
    ///     their aspect-fit scales and centred on each other (SPEC §3b,
    ///     `--crop-borders`). The two halves of a wide page always are.
    ///   - options: canvas, gap, page aspect, fit and alignment.
    package static func place(_ spread: Spread, pageSize: (Leaf) -> (width: Int, height: Int), oneScale: Bool = false,
                             options: GeometryOptions) -> [PlacedSlot] {
        let frames = SlotFrames(options: options)
        switch spread {
        case .wide(let page):
            return [PlacedSlot(side: .wide, leaf: .page(page),
                               frame: draw(pageSize(.page(page)), in: frames.wide, fit: options.fit, anchor: .center))]
        case .single(let page):
            return [PlacedSlot(side: .single, leaf: .page(page),
                               frame: draw(pageSize(.page(page)), in: frames.single, fit: options.fit, anchor: .center))]
        case .singleHalf(let page, let half):
            return [PlacedSlot(side: .single, leaf: .half(page, half),
                               frame: draw(pageSize(.half(page, half)), in: frames.single, fit: options.fit, anchor: .center))]
        case .pair(let left, let right):
            let leftAnchor: Anchor = options.align == .spine ? .maxX : .center
            let rightAnchor: Anchor = options.align == .spine ? .minX : .center
            var leftFrame = left.pageNumber.map { _ in draw(pageSize(left), in: frames.left, fit: options.fit, anchor: leftAnchor) }
            var rightFrame = right.pageNumber.map { _ in draw(pageSize(right), in: frames.right, fit: options.fit, anchor: rightAnchor) }
            let halves: Bool
            if case .half = left, case .half = right { halves = true } else { halves = false }
            if (oneScale || halves) && options.fit == .contain, let l = leftFrame, let r = rightFrame {
                // The page drawn smaller binds: the other takes its scale.
                let leftSize = pageSize(left), rightSize = pageSize(right)
                let leftScale = l.width / Double(max(leftSize.width, 1))
                let rightScale = r.width / Double(max(rightSize.width, 1))
                if leftScale < rightScale {
                    rightFrame = draw(rightSize, scaledBy: leftScale, in: frames.right, anchor: rightAnchor)
                } else if rightScale < leftScale {
                    leftFrame = draw(leftSize, scaledBy: rightScale, in: frames.left, anchor: leftAnchor)
                }
            }
            // A blank is its partner's drawn rectangle mirrored across the spine.
            guard let l = leftFrame ?? rightFrame?.mirrored(acrossX: frames.spineX),
                  let r = rightFrame ?? leftFrame?.mirrored(acrossX: frames.spineX) else { return [] }
            return [PlacedSlot(side: .left, leaf: left, frame: l), PlacedSlot(side: .right, leaf: right, frame: r)]
        }
    }

    /// Horizontal anchor of a drawn page inside its slot.
    package enum Anchor { case minX, center, maxX }

    /// The aspect-fit (or stretched) rectangle of a `pw×ph` page in `slot`,
    /// centred vertically and anchored horizontally.
    package static func draw(_ size: (width: Int, height: Int), in slot: RealRect, fit: FitMode, anchor: Anchor) -> RealRect {
        guard fit == .contain else { return slot }
        let pw = Double(max(size.width, 1)), ph = Double(max(size.height, 1))
        let drawnW: Double, drawnH: Double
        // Compare the two scales exactly (cross-multiplied) and keep the binding
        // side equal to the slot, so a page that fills its slot's width lands on
        // the slot's edges without a rounding crumb.
        if slot.width * ph <= slot.height * pw {
            drawnW = slot.width
            drawnH = ph * slot.width / pw
        } else {
            drawnH = slot.height
            drawnW = pw * slot.height / ph
        }
        return place(width: drawnW, height: drawnH, in: slot, anchor: anchor)
    }

    /// A `pw×ph` page drawn at `scale` (no larger than its own fit), centred
    /// vertically in `slot` and anchored horizontally.
    static func draw(_ size: (width: Int, height: Int), scaledBy scale: Double, in slot: RealRect, anchor: Anchor) -> RealRect {
        place(width: Double(max(size.width, 1)) * scale, height: Double(max(size.height, 1)) * scale, in: slot, anchor: anchor)
    }

    /// A `drawnW×drawnH` rectangle centred vertically in `slot` and anchored horizontally.
    private static func place(width drawnW: Double, height drawnH: Double, in slot: RealRect, anchor: Anchor) -> RealRect {
        let y = slot.minY + (slot.height - drawnH) / 2
        switch anchor {
        case .minX:
            return RealRect(minX: slot.minX, minY: y, maxX: slot.minX + drawnW, maxY: y + drawnH)
        case .maxX:
            return RealRect(minX: slot.maxX - drawnW, minY: y, maxX: slot.maxX, maxY: y + drawnH)
        case .center:
            let x = slot.minX + (slot.width - drawnW) / 2
            return RealRect(minX: x, minY: y, maxX: x + drawnW, maxY: y + drawnH)
        }
    }
}
