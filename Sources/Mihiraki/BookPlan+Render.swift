import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

extension BookPlan {
    /// Renders spread `index` into memory, in the smallest exact output layout
    /// (gray, RGB or RGBA).
    ///
    /// - Throws: `MihirakiError` naming a page that cannot be read or decoded.
    public func renderSpread(at index: Int) throws -> PixelBuffer {
        StageProfile.countSpread()
        return try compose(entries[index]) { page in
            let file = self.pages[page - 1]
            let bytes = try StageProfile.measure(.read) { try book.read(file) }
            do {
                return try StageProfile.measure(.decode) { try PageDecoder.decode(bytes, maxPixels: options.maxPixels) }
            } catch let error as CodecError {
                throw MihirakiError(.badPage, path: book.displayPath(file), error.message)
            }
        }
    }

    /// Draws the pages of `entry` into a new canvas. Pages are decoded one at
    /// a time, each released once drawn, so a worker holds at most one
    /// decoded page.
    func compose(_ entry: Entry, decode: (Int) throws -> PixelBuffer) throws -> PixelBuffer {
        let background = options.background, blank = options.blank
        let hasBlank = entry.slots.contains { $0.leaf == .blank }
        // A gray canvas is exact only when everything drawn on it is gray and
        // opaque; an opaque background makes an RGB canvas (pages with alpha
        // are flattened onto it); only a see-through background needs RGBA.
        let grayCanvas = background.isGray && background.isOpaque && (!hasBlank || blank.isGray)
            && entry.spread.pages.allSatisfy { headers[$0 - 1].isGray }
        let channels = grayCanvas ? 1 : (background.isOpaque ? 3 : 4)
        func samples(_ color: Color) -> [UInt8] {
            Array([color.red, color.green, color.blue, color.alpha].prefix(channels == 1 ? 1 : channels))
        }
        let backgroundSamples = samples(background.premultiplied)
        var canvas = PixelBuffer(width: self.canvas.width, height: self.canvas.height, channels: channels)
        canvas.fill(x: 0, y: 0, width: canvas.width, height: canvas.height, samples: backgroundSamples)
        for slot in entry.slots {
            let rect = slot.rect
            switch slot.leaf {
            case .blank:
                canvas.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                            samples: samples(blank.premultipliedOver(background)))
            case .page(let number):
                // Decoded even when its rectangle is empty: a broken page is an error either way.
                let page = try decode(number)
                guard rect.width > 0, rect.height > 0 else { continue }
                let scaled = StageProfile.measure(.resample) {
                    LanczosResampler.resample(page.prepared(forCanvasChannels: channels, over: background),
                                              width: rect.width, height: rect.height)
                }
                StageProfile.measure(.compose) { canvas.blit(scaled, x: rect.x, y: rect.y) }
            }
        }
        return StageProfile.measure(.compose) { canvas.reducedForOutput() }
    }
}
