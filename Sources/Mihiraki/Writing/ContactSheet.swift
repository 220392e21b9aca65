import MihirakiRaster

/// `contact-sheet.png`: every spread of a book as a small labelled tile, in
/// file order, four to a row, for looking at a whole book at once.
enum ContactSheet {
    static let tileWidth = 320
    static let columns = 4
    static let padding = 16
    static let labelScale = 2
    static let labelHeight = BitmapFont.glyphHeight * labelScale + 10
    static let background = Color(gray: 0x24)
    static let ink = Color(gray: 0xF0)

    /// A spread reduced to a tile: opaque RGB over the sheet's background.
    static func tile(_ spread: PixelBuffer) -> PixelBuffer {
        let height = tileHeight(width: spread.width, height: spread.height)
        let opaque = spread.prepared(forCanvasChannels: 3, over: background)
        return LanczosResampler.resample(opaque, width: tileWidth, height: height)
    }

    /// The height of a tile of a spread of `width × height`.
    static func tileHeight(width: Int, height: Int) -> Int {
        max(1, Int((Double(height) * Double(tileWidth) / Double(width)).rounded()))
    }

    /// The sheet's size for `spreads` tiles of `tileHeight`, known before any
    /// spread is drawn so an oversized sheet is refused up front.
    static func size(spreads: Int, tileHeight: Int) -> (width: Int, height: Int) {
        let cols = min(columns, spreads), rows = (spreads + cols - 1) / cols
        return (padding + cols * (tileWidth + padding), padding + rows * (tileHeight + labelHeight + padding))
    }

    /// The sheet's size for a book of `spreads` spreads on `canvas`.
    static func size(spreads: Int, canvas: (width: Int, height: Int)) -> (width: Int, height: Int) {
        size(spreads: spreads, tileHeight: tileHeight(width: canvas.width, height: canvas.height))
    }

    /// Lays the tiles out in a grid, each with its label (`[2|3]`) below it.
    static func make(tiles: [PixelBuffer], labels: [String]) -> PixelBuffer {
        precondition(tiles.count == labels.count && !tiles.isEmpty, "one label per tile")
        let cols = min(columns, tiles.count)
        let cellHeight = (tiles.map(\.height).max() ?? 1) + labelHeight
        let (width, height) = size(spreads: tiles.count, tileHeight: cellHeight - labelHeight)
        var sheet = PixelBuffer(width: width, height: height, channels: 3)
        sheet.fill(x: 0, y: 0, width: width, height: height, color: background)
        for (index, tile) in tiles.enumerated() {
            let x = padding + (index % cols) * (tileWidth + padding)
            let y = padding + (index / cols) * (cellHeight + padding)
            sheet.blit(tile, x: x, y: y)
            let label = labels[index]
            let labelX = x + (tileWidth - BitmapFont.width(of: label, scale: labelScale)) / 2
            BitmapFont.draw(label, into: &sheet, x: labelX, y: y + tile.height + 6, scale: labelScale,
                            color: ink)
        }
        return sheet.reducedForOutput()
    }
}
