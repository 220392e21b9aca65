/// The page slots of a canvas: where the left, right and wide pages may go.
package struct SlotFrames: Hashable, Sendable {
    package var left: RealRect
    package var right: RealRect
    /// The union of both slots (a wide page's slot); in single mode, the canvas.
    package var wide: RealRect
    /// Single mode's one slot.
    package var single: RealRect
    /// The vertical line pages meet at, and blanks mirror across.
    package var spineX: Double

    /// Computes the slots for a canvas (Mihiraki.docc/GeometryAndRounding.md).
    package init(options: GeometryOptions) {
        let w = Double(options.canvasWidth), h = Double(options.canvasHeight), g = options.gap
        let a = options.pageAspect.width, b = options.pageAspect.height
        let slotW: Double, slotH: Double, y: Double, leftX: Double
        // The inner edges are computed once and shared, so a page pushed to
        // the spine ends exactly where its partner starts.
        let leftInner = w / 2 - g / 2, rightInner = w / 2 + g / 2
        if (w - g) / h >= 2 * a / b {
            // Fit to height; the pair is centred around the spine.
            slotH = h
            slotW = a * h / b
            y = 0
            leftX = leftInner - slotW
        } else {
            // Fit to width; the pair is centred vertically.
            slotW = (w - g) / 2
            slotH = b * slotW / a
            y = (h - slotH) / 2
            leftX = 0
        }
        left = RealRect(minX: leftX, minY: y, maxX: leftInner, maxY: y + slotH)
        right = RealRect(minX: rightInner, minY: y, maxX: rightInner + slotW, maxY: y + slotH)
        spineX = w / 2
        if options.layout == .single {
            let singleW: Double, singleH: Double
            if w / h >= a / b {
                singleH = h
                singleW = a * h / b
            } else {
                singleW = w
                singleH = b * w / a
            }
            single = RealRect(x: (w - singleW) / 2, y: (h - singleH) / 2, width: singleW, height: singleH)
            wide = RealRect(x: 0, y: 0, width: w, height: h)
        } else {
            single = RealRect(x: 0, y: 0, width: w, height: h)
            wide = RealRect(minX: left.minX, minY: y, maxX: right.maxX, maxY: y + slotH)
        }
    }
}
