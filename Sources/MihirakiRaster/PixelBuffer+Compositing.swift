extension PixelBuffer {
    /// This page made ready to draw on a canvas of `canvasChannels` (1: gray,
    /// 4: premultiplied RGBA), with any transparency composited over
    /// `background` (source-over).
    ///
    /// Compositing before resampling is exact: drawing over a flat colour is an
    /// affine map of premultiplied values, and resampling weights sum to one,
    /// so flatten-then-resample equals resample-then-flatten.
    ///
    /// - Precondition: a gray canvas is only asked for when the page is gray
    ///   and `background` is opaque gray.
    public func prepared(forCanvasChannels canvasChannels: Int, over background: Color) -> PixelBuffer {
        precondition(canvasChannels == 1 || canvasChannels == 4, "canvases are gray or RGBA")
        let n = width * height
        let c = channels
        if canvasChannels == 1 {
            precondition(c <= 2 && background.isGray && background.isOpaque, "page or background is not gray")
            if c == 1 { return self }
            let bg = Int(background.red)
            var out = [UInt8](repeating: 0, count: n)
            for i in 0..<n {
                let v = Int(pixels[2 * i]), a = Int(pixels[2 * i + 1])
                out[i] = UInt8((v * a + bg * (255 - a) + 127) / 255)
            }
            return PixelBuffer(width: width, height: height, channels: 1, pixels: out)
        }
        var out = [UInt8](repeating: 0, count: n * 4)
        switch c {
        case 1:
            for i in 0..<n {
                let v = pixels[i]
                out[4 * i] = v; out[4 * i + 1] = v; out[4 * i + 2] = v; out[4 * i + 3] = 255
            }
        case 3:
            for i in 0..<n {
                out[4 * i] = pixels[3 * i]; out[4 * i + 1] = pixels[3 * i + 1]
                out[4 * i + 2] = pixels[3 * i + 2]; out[4 * i + 3] = 255
            }
        default:
            let b = Int(background.alpha)
            let bgR = Int(background.red) * b, bgG = Int(background.green) * b, bgB = Int(background.blue) * b
            for i in 0..<n {
                let r: Int, g: Int, bl: Int, a: Int
                if c == 2 {
                    r = Int(pixels[2 * i]); g = r; bl = r; a = Int(pixels[2 * i + 1])
                } else {
                    r = Int(pixels[4 * i]); g = Int(pixels[4 * i + 1]); bl = Int(pixels[4 * i + 2]); a = Int(pixels[4 * i + 3])
                }
                let rest = 255 - a
                out[4 * i] = UInt8((r * a * 255 + bgR * rest + 32512) / 65025)
                out[4 * i + 1] = UInt8((g * a * 255 + bgG * rest + 32512) / 65025)
                out[4 * i + 2] = UInt8((bl * a * 255 + bgB * rest + 32512) / 65025)
                out[4 * i + 3] = UInt8((a * 255 + b * rest + 127) / 255)
            }
        }
        return PixelBuffer(width: width, height: height, channels: 4, pixels: out)
    }

    /// Fills `rect` (clipped to the buffer) with one pixel value given as
    /// samples in this buffer's layout.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, samples: [UInt8]) {
        precondition(samples.count == channels, "sample count does not match the buffer")
        let x0 = max(x, 0), y0 = max(y, 0), x1 = min(x + w, width), y1 = min(y + h, height)
        guard x0 < x1, y0 < y1 else { return }
        let c = channels, stride = rowBytes
        pixels.withUnsafeMutableBufferPointer { dst in
            for row in y0..<y1 {
                var i = row * stride + x0 * c
                for _ in x0..<x1 {
                    for k in 0..<c { dst[i + k] = samples[k] }
                    i += c
                }
            }
        }
    }

    /// Copies `image` (same channel layout) with its top-left corner at
    /// `(x, y)`, clipped to this buffer.
    public mutating func blit(_ image: PixelBuffer, x: Int, y: Int) {
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
    public func reducedForOutput() -> PixelBuffer {
        guard channels == 4 else { return self }
        let n = width * height
        var opaque = true, gray = true
        pixels.withUnsafeBufferPointer { p in
            for i in 0..<n {
                let r = p[4 * i], g = p[4 * i + 1], b = p[4 * i + 2], a = p[4 * i + 3]
                if a != 255 { opaque = false }
                if r != g || g != b { gray = false }
                if !opaque && !gray { break }
            }
        }
        if opaque && gray {
            return PixelBuffer(width: width, height: height, channels: 1,
                               pixels: (0..<n).map { pixels[4 * $0] })
        }
        if opaque {
            var out = [UInt8](repeating: 0, count: n * 3)
            for i in 0..<n {
                out[3 * i] = pixels[4 * i]; out[3 * i + 1] = pixels[4 * i + 1]; out[3 * i + 2] = pixels[4 * i + 2]
            }
            return PixelBuffer(width: width, height: height, channels: 3, pixels: out)
        }
        var out = pixels
        for i in 0..<n {
            let a = Int(out[4 * i + 3])
            for k in 0..<3 {
                let c = Int(out[4 * i + k])
                out[4 * i + k] = a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a))
            }
        }
        return PixelBuffer(width: width, height: height, channels: 4, pixels: out)
    }
}
