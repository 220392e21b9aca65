import CMihirakiKernels
extension PixelBuffer {
    /// This page made ready to draw on a canvas of `canvasChannels` (1: gray,
    /// 3: RGB, 4: premultiplied RGBA), with any transparency composited over
    /// `background` (source-over).
    ///
    /// Compositing before resampling is exact: drawing over a flat colour is an
    /// affine map of premultiplied values, and resampling weights sum to one,
    /// so flatten-then-resample equals resample-then-flatten.
    ///
    /// - Precondition: gray and RGB canvases need an opaque `background`
    ///   (gray for a gray canvas), and a gray canvas a gray page.
    package func prepared(forCanvasChannels canvasChannels: Int, over background: Color) -> PixelBuffer {
        if channels == canvasChannels && (channels == 1 || channels == 3) { return self }
        return PixelBuffer(width: width, height: height, channels: canvasChannels) { out in
            pixels.withUnsafeBufferPointer { src in
                Self.prepareRow(src.baseAddress!, channels: channels, into: out.baseAddress!,
                                canvasChannels: canvasChannels, count: width * height, over: background)
            }
        }
    }

    /// `prepared` for `count` pixels in a row: samples of `channels` per pixel
    /// become samples of `canvasChannels`, composited over `background`.
    package static func prepareRow(_ src: UnsafePointer<UInt8>, channels c: Int, into dst: UnsafeMutablePointer<UInt8>,
                                  canvasChannels out: Int, count n: Int, over background: Color) {
        precondition([1, 3, 4].contains(out), "canvases are gray, RGB or RGBA")
        precondition(out == 4 || background.isOpaque, "an opaque canvas needs an opaque background")
        precondition(out != 1 || (c <= 2 && background.isGray), "a gray canvas needs gray input")
        if c == out && (c == 1 || c == 3) {
            dst.update(from: src, count: n * c)
            return
        }
        let bgAlpha = Int(background.alpha)
        let bgR = Int(background.red) * bgAlpha, bgG = Int(background.green) * bgAlpha, bgB = Int(background.blue) * bgAlpha
        let colors = min(out, 3)
        for i in 0..<n {
            let s = src + i * c, d = dst + i * out
            switch c {
            case 1:
                for k in 0..<colors { d[k] = s[0] }
                if out == 4 { d[3] = 255 }
            case 3:
                d[0] = s[0]; d[1] = s[1]; d[2] = s[2]
                if out == 4 { d[3] = 255 }
            default:
                let a = Int(s[c - 1]), rest = 255 - a
                let r = Int(s[0]), g = c == 2 ? r : Int(s[1]), b = c == 2 ? r : Int(s[2])
                d[0] = UInt8((r * a * 255 + bgR * rest + 32512) / 65025)
                if colors == 3 {
                    d[1] = UInt8((g * a * 255 + bgG * rest + 32512) / 65025)
                    d[2] = UInt8((b * a * 255 + bgB * rest + 32512) / 65025)
                }
                if out == 4 { d[3] = UInt8((a * 255 + bgAlpha * rest + 127) / 255) }
            }
        }
    }

    /// Fills `rect` (clipped to the buffer) with `color` as this buffer
    /// stores it (premultiplied in an RGBA buffer). The colour and the
    /// buffer's layout cannot disagree: a gray buffer given a colour that is
    /// not gray becomes RGB first (``expandedToRGB()``), and a buffer without
    /// alpha takes the colour's samples and drops its alpha.
    package mutating func fill(x: Int, y: Int, width w: Int, height h: Int, color: Color) {
        if channels == 1 && !color.isGray { self = expandedToRGB() }
        let samples: [UInt8]
        switch channels {
        case 1: samples = [color.red]
        case 2: samples = [color.red, color.alpha]
        case 3: samples = [color.red, color.green, color.blue]
        default: samples = [color.red, color.green, color.blue, color.alpha]
        }
        fill(x: x, y: y, width: w, height: h, samples: samples)
    }

    /// Fills `rect` with one pixel value given as `samples` in this buffer's
    /// layout (exactly `channels` of them: ``fill(x:y:width:height:color:)``
    /// makes them).
    private mutating func fill(x: Int, y: Int, width w: Int, height h: Int, samples: [UInt8]) {
        let x0 = max(x, 0), y0 = max(y, 0), x1 = min(x + w, width), y1 = min(y + h, height)
        guard x0 < x1, y0 < y1 else { return }
        let c = channels, stride = rowBytes, span = (x1 - x0) * c
        pixels.withUnsafeMutableBufferPointer { dst in
            let base = dst.baseAddress!
            // One row by doubling the pattern, the other rows copied from it.
            let first = base + y0 * stride + x0 * c
            if c == 1 || samples.allSatisfy({ $0 == samples[0] }) {
                first.update(repeating: samples[0], count: span)
            } else {
                for k in 0..<c { first[k] = samples[k] }
                var filled = c
                while filled < span {
                    let n = min(filled, span - filled)
                    (first + filled).update(from: first, count: n)
                    filled += n
                }
            }
            for row in (y0 + 1)..<max(y0 + 1, y1) {
                (base + row * stride + x0 * c).update(from: first, count: span)
            }
        }
    }

    /// A gray canvas as RGB, each sample repeated: what an RGB canvas would
    /// hold had it been RGB from the start. Any other buffer is returned as
    /// it is.
    package func expandedToRGB() -> PixelBuffer {
        guard channels == 1 else { return self }
        return PixelBuffer(width: width, height: height, channels: 3) { out in
            pixels.withUnsafeBufferPointer { gray in
                for i in 0..<gray.count {
                    out[3 * i] = gray[i]; out[3 * i + 1] = gray[i]; out[3 * i + 2] = gray[i]
                }
            }
        }
    }

    /// Copies `image` (same channel layout) with its top-left corner at
    /// `(x, y)`, clipped to this buffer.
    package mutating func blit(_ image: PixelBuffer, x: Int, y: Int) {
        precondition(image.channels == channels, "channel layouts differ")
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + image.width, width), y1 = min(y + image.height, height)
        guard x0 < x1, y0 < y1 else { return }
        let c = channels, count = (x1 - x0) * c
        let dstStride = rowBytes, srcStride = image.rowBytes
        pixels.withUnsafeMutableBufferPointer { dst in
            image.pixels.withUnsafeBufferPointer { src in
                for row in y0..<y1 {
                    let d = row * dstStride + x0 * c
                    let s = (row - y) * srcStride + (x0 - x) * c
                    dst.baseAddress!.advanced(by: d).update(from: src.baseAddress!.advanced(by: s), count: count)
                }
            }
        }
    }

    /// A finished canvas in the smallest PNG layout that holds it exactly:
    /// gray when opaque and every pixel has R = G = B, RGB when opaque, and
    /// straight (un-premultiplied) RGBA otherwise.
    ///
    /// Un-premultiplying cannot recover a straight colour whose alpha is
    /// partial (`#0f6b7f01` is stored premultiplied as (0, 0, 0, 1)). Each
    /// entry of `flat` names a premultiplied value the canvas was filled with,
    /// the straight colour it stands for and where (`within`, nil:
    /// anywhere); a pixel there holding that value becomes that colour, so
    /// the background and blanks come out exactly as given. Entries are
    /// tried in order: a blank's, within its rectangles, before the
    /// background's, whose value it may share (`#186b7e01` over `#10203080`
    /// is stored as the background is). Any pixel of a page that holds the same value gets the same
    /// colour, which premultiplies to what it holds: as faithful as any
    /// other straight value of it.
    package func reducedForOutput(flat: [FlatColour] = []) -> PixelBuffer {
        guard channels >= 3 else { return self }
        // An RGBA canvas is made straight first (the flat colours as given), and then reduced as it is.
        return (channels == 4 ? unpremultiplied(flat: flat) : self).reduced()
    }

    /// An opaque canvas (RGB, or straight RGBA whose alpha is all 255) as
    /// gray when every pixel has R = G = B, else RGB; a see-through one as it is.
    private func reduced() -> PixelBuffer {
        let n = width * height, c = channels
        let found = pixels.withUnsafeBufferPointer { mh_gray_opaque($0.baseAddress!, n, Int32(c)) }
        let gray = found & Int32(MH_PIXELS_GRAY) != 0, opaque = found & Int32(MH_PIXELS_OPAQUE) != 0
        if opaque && gray {
            return PixelBuffer(width: width, height: height, channels: 1, pixels: (0..<n).map { pixels[c * $0] })
        }
        if opaque {
            if c == 3 { return self }
            var out = [UInt8](repeating: 0, count: n * 3)
            for i in 0..<n {
                out[3 * i] = pixels[4 * i]; out[3 * i + 1] = pixels[4 * i + 1]; out[3 * i + 2] = pixels[4 * i + 2]
            }
            return PixelBuffer(width: width, height: height, channels: 3, pixels: out)
        }
        return self
    }

    /// A premultiplied RGBA canvas as straight RGBA, each pixel that holds
    /// one of `flat`'s premultiplied values as its straight colour.
    private func unpremultiplied(flat: [FlatColour]) -> PixelBuffer {
        let n = width * height
        var out = pixels
        let keys = flat.map { UInt32($0.premultiplied.red) | UInt32($0.premultiplied.green) << 8
            | UInt32($0.premultiplied.blue) << 16 | UInt32($0.premultiplied.alpha) << 24 }
        for i in 0..<n {
            if !keys.isEmpty {
                let key = UInt32(out[4 * i]) | UInt32(out[4 * i + 1]) << 8 | UInt32(out[4 * i + 2]) << 16
                    | UInt32(out[4 * i + 3]) << 24
                if let k = keys.indices.first(where: { keys[$0] == key && flat[$0].covers(x: i % width, y: i / width) }) {
                    let c = flat[k].straight
                    out[4 * i] = c.red; out[4 * i + 1] = c.green; out[4 * i + 2] = c.blue; out[4 * i + 3] = c.alpha
                    continue
                }
            }
            let a = Int(out[4 * i + 3])
            if a == 255 { continue }
            for k in 0..<3 {
                let value = Int(out[4 * i + k])
                out[4 * i + k] = a == 0 ? 0 : UInt8(min(255, (value * 255 + a / 2) / a))
            }
        }
        return PixelBuffer(width: width, height: height, channels: 4, pixels: out)
    }
}

/// A colour a canvas was filled with: its premultiplied value as stored,
/// the straight colour it stands for, and where it was filled (nil:
/// anywhere). See ``PixelBuffer/reducedForOutput(flat:)``.
package struct FlatColour: Sendable {
    package var premultiplied: Color
    package var straight: Color
    package var within: [(x: Int, y: Int, width: Int, height: Int)]?

    package init(premultiplied: Color, straight: Color, within: [(x: Int, y: Int, width: Int, height: Int)]? = nil) {
        self.premultiplied = premultiplied
        self.straight = straight
        self.within = within
    }

    func covers(x: Int, y: Int) -> Bool {
        within.map { $0.contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height } } ?? true
    }
}

extension PixelBuffer {
    /// Turns `count` pixels of `channels` samples (3 or 4) in `pixels` into
    /// gray in place, one sample a pixel, when every pixel is gray and opaque;
    /// otherwise leaves them as they are. Returns whether it did.
    package static func compactIfGray(_ pixels: inout [UInt8], count: Int, channels: Int) -> Bool {
        pixels.withUnsafeMutableBufferPointer { mh_compact_if_gray($0.baseAddress!, count, Int32(channels)) != 0 }
    }
}
