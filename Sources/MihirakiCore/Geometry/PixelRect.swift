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
