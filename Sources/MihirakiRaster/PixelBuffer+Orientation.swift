extension PixelBuffer {
    /// This image turned upright according to an EXIF orientation (1–8).
    /// Orientations 5–8 swap width and height; unknown values leave it as is.
    package func oriented(exif orientation: Int) -> PixelBuffer {
        guard (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5
        let outW = swaps ? height : width, outH = swaps ? width : height
        var out = PixelBuffer(width: outW, height: outH, channels: channels)
        let c = channels, w = width, h = height
        pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                var d = 0
                for y in 0..<outH {
                    for x in 0..<outW {
                        // The stored pixel that is displayed at (x, y).
                        let sx: Int, sy: Int
                        switch orientation {
                        case 2: sx = w - 1 - x; sy = y               // mirrored horizontally
                        case 3: sx = w - 1 - x; sy = h - 1 - y       // rotated 180°
                        case 4: sx = x; sy = h - 1 - y               // mirrored vertically
                        case 5: sx = y; sy = x                       // transposed
                        case 6: sx = y; sy = h - 1 - x               // needs 90° clockwise
                        case 7: sx = w - 1 - y; sy = h - 1 - x       // transversed
                        default: sx = w - 1 - y; sy = x              // 8: needs 90° counter-clockwise
                        }
                        let s = (sy * w + sx) * c
                        for k in 0..<c { dst[d + k] = src[s + k] }
                        d += c
                    }
                }
            }
        }
        return out
    }
}
