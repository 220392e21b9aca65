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
