/// High-quality separable resampling (Lanczos-3) in fixed point.
///
/// The horizontal pass runs first into an 8-bit intermediate, then the
/// vertical pass; a pass whose axis keeps its size is skipped. All arithmetic
/// is integer, so the result depends only on the input and the sizes.
public enum LanczosResampler {
    /// `source` resampled to exactly `width × height`, same channel layout.
    public static func resample(_ source: PixelBuffer, width: Int, height: Int) -> PixelBuffer {
        precondition(width > 0 && height > 0, "empty target")
        var image = source
        if width != source.width {
            image = horizontal(image, kernel: ResampleKernel(inputSize: source.width, outputSize: width))
        }
        if height != source.height {
            image = vertical(image, kernel: ResampleKernel(inputSize: source.height, outputSize: height))
        }
        return image
    }

    @inline(__always)
    static func clampToByte(_ accumulator: Int32) -> UInt8 {
        let v = accumulator >> Int32(ResampleKernel.precisionBits)
        return UInt8(truncatingIfNeeded: v < 0 ? 0 : (v > 255 ? 255 : v))
    }

    static let roundingBias: Int32 = 1 << Int32(ResampleKernel.precisionBits - 1)

    /// Resamples rows: every output row is a weighted sum along x.
    static func horizontal(_ source: PixelBuffer, kernel: ResampleKernel) -> PixelBuffer {
        let c = source.channels, outW = kernel.outputSize, taps = kernel.taps
        var output = PixelBuffer(width: outW, height: source.height, channels: c)
        source.pixels.withUnsafeBufferPointer { src in
            kernel.weights.withUnsafeBufferPointer { weights in
                output.pixels.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<source.height {
                        let srcRow = y * source.width * c
                        let dstRow = y * outW * c
                        for o in 0..<outW {
                            let start = Int(kernel.starts[o]), count = Int(kernel.counts[o])
                            let wBase = o * taps
                            for k in 0..<c {
                                var acc = roundingBias
                                var p = srcRow + start * c + k
                                for t in 0..<count {
                                    acc &+= weights[wBase + t] &* Int32(src[p])
                                    p += c
                                }
                                dst[dstRow + o * c + k] = clampToByte(acc)
                            }
                        }
                    }
                }
            }
        }
        return output
    }

    /// Resamples columns: every output row is a weighted sum of input rows.
    static func vertical(_ source: PixelBuffer, kernel: ResampleKernel) -> PixelBuffer {
        let rowBytes = source.rowBytes, outH = kernel.outputSize, taps = kernel.taps
        var output = PixelBuffer(width: source.width, height: outH, channels: source.channels)
        var accumulators = [Int32](repeating: 0, count: rowBytes)
        source.pixels.withUnsafeBufferPointer { src in
            kernel.weights.withUnsafeBufferPointer { weights in
                output.pixels.withUnsafeMutableBufferPointer { dst in
                    accumulators.withUnsafeMutableBufferPointer { acc in
                        for o in 0..<outH {
                            let start = Int(kernel.starts[o]), count = Int(kernel.counts[o])
                            for i in 0..<rowBytes { acc[i] = roundingBias }
                            for t in 0..<count {
                                let w = weights[o * taps + t]
                                let row = (start + t) * rowBytes
                                for i in 0..<rowBytes { acc[i] &+= w &* Int32(src[row + i]) }
                            }
                            let dstRow = o * rowBytes
                            for i in 0..<rowBytes { dst[dstRow + i] = clampToByte(acc[i]) }
                        }
                    }
                }
            }
        }
        return output
    }
}
