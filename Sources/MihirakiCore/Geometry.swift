/// A rectangle in canvas pixels after snapping: `[x, y, width, height]`.
package struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    package var description: String { "[\(x), \(y), \(width), \(height)]" }
}

/// A rectangle in real numbers, by its edges.
package struct RealRect: Hashable, Sendable {
    package var minX: Double
    package var minY: Double
    package var maxX: Double
    package var maxY: Double

    package init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    package var width: Double { maxX - minX }
    package var height: Double { maxY - minY }

    /// Each edge snapped on its own with `floor(v + 0.5)` (Mihiraki.docc/GeometryAndRounding.md), so edges
    /// equal in real numbers stay equal in pixels: no seam, no overlap.
    package var snapped: PixelRect {
        let x0 = Int(snap(minX)), y0 = Int(snap(minY))
        let x1 = Int(snap(maxX)), y1 = Int(snap(maxY))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// This rectangle reflected across the vertical line `x = axis`.
    package func mirrored(acrossX axis: Double) -> RealRect {
        RealRect(minX: 2 * axis - maxX, minY: minY, maxX: 2 * axis - minX, maxY: maxY)
    }
}

/// The rounding rule of Mihiraki.docc/GeometryAndRounding.md: `floor(v + 0.5)`.
@inline(__always)
package func snap(_ value: Double) -> Double { (value + 0.5).rounded(.down) }

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

/// Which part of a spread a slot is, as the manifest names it.
package enum SlotSide: String, Hashable, Sendable {
    case left, right, wide, single
}

/// One placed rectangle of a spread: a page or a blank, and where it is drawn.
package struct PlacedSlot: Hashable, Sendable {
    package var side: SlotSide
    package var leaf: Leaf
    /// The drawn rectangle in real numbers, before snapping.
    package var frame: RealRect
    /// The drawn rectangle in canvas pixels.
    package var rect: PixelRect { frame.snapped }

    package init(side: SlotSide, leaf: Leaf, frame: RealRect) {
        self.side = side
        self.leaf = leaf
        self.frame = frame
    }
}

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
