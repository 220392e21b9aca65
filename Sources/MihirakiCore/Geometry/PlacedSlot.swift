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
