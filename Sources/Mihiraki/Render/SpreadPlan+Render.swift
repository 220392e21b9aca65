import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

extension SpreadPlan {
    /// Renders spread `index` into memory, in the smallest exact output layout
    /// (gray, RGB or RGBA).
    ///
    /// - Parameter index: 0-based, below ``spreadCount``.
    /// - Returns: the spread's pixels, exactly what its file holds.
    /// - Throws: ``MihirakiError`` naming a page that cannot be read or
    ///   decoded; `.usage` for an index out of range.
    public func renderSpread(at index: Int) throws -> PixelBuffer {
        try renderSpread(at: index, observer: nil)
    }

    /// Spread `index` as the bytes of its file: exactly what `render` writes,
    /// in the format ``LayoutOptions/encoding`` names.
    ///
    /// - Parameter index: 0-based, below ``spreadCount``.
    /// - Throws: ``MihirakiError`` naming a page that cannot be read or decoded.
    public func spreadFile(at index: Int) throws -> [UInt8] {
        try encode(try renderSpread(at: index), path: entries[index].file)
    }

    /// ``spreadFile(at:)`` with a deadline: the render stops before the next
    /// page or decoded row once `deadline` has passed, and nothing half-made
    /// is returned. (A page in a format that decodes whole, such as AVIF or a
    /// PDF page's rasterisation, and the final encode run to their end first.)
    ///
    /// - Throws: ``MihirakiError`` with code `.timedOut` past the deadline,
    ///   or naming a page that cannot be read or decoded.
    public func spreadFile(at index: Int, deadline: ContinuousClock.Instant) throws -> [UInt8] {
        let image = try renderSpread(at: index, observer: nil, deadline: .at(deadline))
        return try encode(image, path: entries[index].file)
    }

    /// A rendered spread (or contact sheet) in the options' format. A JPEG
    /// cannot hold alpha: a see-through image is flattened onto the blank
    /// colour (made opaque) first. `path` names the file in errors.
    package func encode(_ image: PixelBuffer, path: String) throws -> [UInt8] {
        let encoding = options.encoding
        var image = image
        if !encoding.format.hasAlpha && image.channels == 4 {
            let paper = options.blank
            image = image.prepared(forCanvasChannels: 3, over: Color(red: paper.red, green: paper.green, blue: paper.blue))
                .reducedForOutput()
        }
        return try MihirakiError.wrapping(path: path) { try SpreadEncoder.encode(image, with: encoding) }
    }

    /// What a reader of spread `index`'s file sees: the rendered pixels for
    /// PNG; for the lossy formats, the file's bytes decoded again.
    /// With `cache`, pages the run's measuring kept are drawn from it.
    package func spreadAsWritten(at index: Int, cache: PageCache? = nil) throws -> PixelBuffer {
        let image = try SpreadRenderer(plan: self, cache: cache).render(at: index, observer: nil)
        guard options.encoding.format != .png else { return image }
        let file = entries[index].file
        return try MihirakiError.wrapping(path: file) { try PageDecoder.decode(try encode(image, path: file), colorManage: false) }
    }

    /// ``renderSpread(at:)``, telling `observer` where the time goes.
    package func renderSpread(at index: Int, observer: (any RenderObserver)?,
                              deadline: RenderDeadline? = nil) throws -> PixelBuffer {
        try SpreadRenderer(plan: self, cache: nil).render(at: index, observer: observer, deadline: deadline)
    }

    /// Samples per pixel of an entry's canvas. A gray canvas is exact only
    /// when everything drawn on it is gray and opaque; an opaque background
    /// makes an RGB canvas (pages with alpha are flattened onto it); only a
    /// see-through background needs RGBA.
    ///
    /// A page whose header cannot say whether it is gray (WebP, AVIF, JPEG
    /// XL, GIF: ``PageHeader/grayOnceDecoded``) counts as gray here; if it
    /// turns out to be colour when drawn, the canvas becomes RGB then
    /// (``PixelBuffer/expandedToRGB()``), which gives the same samples as an
    /// RGB canvas from the start. So a gray WebP book is drawn in one channel
    /// without decoding any page twice.
    func canvasChannels(_ entry: Entry) -> Int {
        let background = options.background
        let hasBlank = entry.slots.contains { $0.leaf == .blank }
        let grayCanvas = background.isGray && background.isOpaque && (!hasBlank || options.blank.isGray)
            && entry.spread.pages.allSatisfy { headers[$0 - 1].isGray || headers[$0 - 1].grayOnceDecoded }
        return grayCanvas ? 1 : (background.isOpaque ? 3 : 4)
    }
}
