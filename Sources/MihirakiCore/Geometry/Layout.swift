/// Where each page and blank of a spread is drawn (Mihiraki.docc/GeometryAndRounding.md). Pure.
package enum Layout {
    /// The drawn rectangles of one spread, listed left to right.
    ///
    /// - Parameters:
    ///   - spread: which pages and blanks the image shows.
    ///   - pageSize: width and height in pixels (after EXIF orientation) of a page number.
    ///   - options: canvas, gap, page aspect, fit and alignment.
    package static func place(_ spread: Spread, pageSize: (Int) -> (width: Int, height: Int),
                             options: GeometryOptions) -> [PlacedSlot] {
        let frames = SlotFrames(options: options)
        switch spread {
        case .wide(let page):
            return [PlacedSlot(side: .wide, leaf: .page(page),
                               frame: draw(pageSize(page), in: frames.wide, fit: options.fit, anchor: .center))]
        case .single(let page):
            return [PlacedSlot(side: .single, leaf: .page(page),
                               frame: draw(pageSize(page), in: frames.single, fit: options.fit, anchor: .center))]
        case .pair(let left, let right):
            let leftAnchor: Anchor = options.align == .spine ? .maxX : .center
            let rightAnchor: Anchor = options.align == .spine ? .minX : .center
            let leftFrame = left.pageNumber.map { draw(pageSize($0), in: frames.left, fit: options.fit, anchor: leftAnchor) }
            let rightFrame = right.pageNumber.map { draw(pageSize($0), in: frames.right, fit: options.fit, anchor: rightAnchor) }
            // A blank is its partner's drawn rectangle mirrored across the spine.
            guard let l = leftFrame ?? rightFrame?.mirrored(acrossX: frames.spineX),
                  let r = rightFrame ?? leftFrame?.mirrored(acrossX: frames.spineX) else { return [] }
            return [PlacedSlot(side: .left, leaf: left, frame: l), PlacedSlot(side: .right, leaf: right, frame: r)]
        }
    }

    /// Horizontal anchor of a drawn page inside its slot.
    enum Anchor { case minX, center, maxX }

    /// The aspect-fit (or stretched) rectangle of a `pw×ph` page in `slot`,
    /// centred vertically and anchored horizontally.
    static func draw(_ size: (width: Int, height: Int), in slot: RealRect, fit: FitMode, anchor: Anchor) -> RealRect {
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
