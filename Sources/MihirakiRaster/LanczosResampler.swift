import CMihirakiKernels

/// High-quality separable resampling (Lanczos-3) in fixed point.
///
/// The vertical pass runs first (shrinking the row count early), into an
/// 8-bit intermediate, then the horizontal pass; a pass whose axis keeps its
/// size is skipped. The horizontal pass is the vertical kernel applied to the
/// transposed image, so one SIMD multiply-add kernel (`mh_resample_columns`)
/// serves both axes and every channel layout. All arithmetic is integer, so
/// the result depends only on the input and the sizes — `reference` is the
/// plain scalar statement of it, and the two are tested bit for bit.
public enum LanczosResampler {
    /// `source` resampled to exactly `width × height`, same channel layout.
    /// `source` is consumed so that a caller's last reference to a page lets
    /// the page's memory go as soon as the first pass is done with it.
    public static func resample(_ source: consuming PixelBuffer, width: Int, height: Int) -> PixelBuffer {
        precondition(width > 0 && height > 0, "empty target")
        let (sourceWidth, sourceHeight) = (source.width, source.height)
        var image = source
        if height != sourceHeight {
            image = resampleColumns(image, kernel: ResampleKernel(inputSize: sourceHeight, outputSize: height))
        }
        if width != sourceWidth {
            let kernel = ResampleKernel(inputSize: sourceWidth, outputSize: width)
            image = transposed(resampleColumns(transposed(image), kernel: kernel))
        }
        return image
    }

    /// Every output row a weighted sum of input rows (any channel layout).
    static func resampleColumns(_ source: PixelBuffer, kernel: ResampleKernel) -> PixelBuffer {
        let rowBytes = source.rowBytes
        return PixelBuffer(width: source.width, height: kernel.outputSize, channels: source.channels) { dst in
            source.pixels.withUnsafeBufferPointer { src in
                kernel.starts.withUnsafeBufferPointer { starts in
                    kernel.counts.withUnsafeBufferPointer { counts in
                        kernel.weights.withUnsafeBufferPointer { weights in
                            mh_resample_columns(src.baseAddress, rowBytes, rowBytes, starts.baseAddress,
                                                counts.baseAddress, weights.baseAddress, Int32(kernel.taps),
                                                Int32(kernel.outputSize), dst.baseAddress, rowBytes)
                        }
                    }
                }
            }
        }
    }

    /// Pixel (x, y) becomes pixel (y, x).
    static func transposed(_ source: PixelBuffer) -> PixelBuffer {
        PixelBuffer(width: source.height, height: source.width, channels: source.channels) { dst in
            source.pixels.withUnsafeBufferPointer { src in
                mh_transpose(src.baseAddress, source.rowBytes, Int32(source.width), Int32(source.height),
                             Int32(source.channels), dst.baseAddress, source.height * source.channels)
            }
        }
    }

    // MARK: Scalar reference

    /// The same result as `resample`, computed the plain way: each output
    /// sample a clamped, rounded fixed-point sum. The SIMD path must equal it.
    public static func reference(_ source: PixelBuffer, width: Int, height: Int) -> PixelBuffer {
        var image = source
        if height != source.height {
            image = referenceVertical(image, kernel: ResampleKernel(inputSize: source.height, outputSize: height))
        }
        if width != source.width {
            image = referenceHorizontal(image, kernel: ResampleKernel(inputSize: source.width, outputSize: width))
        }
        return image
    }

    @inline(__always)
    static func clampToByte(_ accumulator: Int32) -> UInt8 {
        let v = accumulator >> Int32(ResampleKernel.precisionBits)
        return UInt8(truncatingIfNeeded: v < 0 ? 0 : (v > 255 ? 255 : v))
    }

    static let roundingBias: Int32 = 1 << Int32(ResampleKernel.precisionBits - 1)

    static func referenceHorizontal(_ source: PixelBuffer, kernel: ResampleKernel) -> PixelBuffer {
        let c = source.channels, outW = kernel.outputSize
        var output = PixelBuffer(width: outW, height: source.height, channels: c)
        for y in 0..<source.height {
            for o in 0..<outW {
                let start = Int(kernel.starts[o]), count = Int(kernel.counts[o])
                for k in 0..<c {
                    var acc = roundingBias
                    for t in 0..<count {
                        acc &+= Int32(kernel.weights[o * kernel.taps + t]) &* Int32(source.pixels[(y * source.width + start + t) * c + k])
                    }
                    output.pixels[(y * outW + o) * c + k] = clampToByte(acc)
                }
            }
        }
        return output
    }

    static func referenceVertical(_ source: PixelBuffer, kernel: ResampleKernel) -> PixelBuffer {
        let rowBytes = source.rowBytes
        var output = PixelBuffer(width: source.width, height: kernel.outputSize, channels: source.channels)
        for o in 0..<kernel.outputSize {
            let start = Int(kernel.starts[o]), count = Int(kernel.counts[o])
            for i in 0..<rowBytes {
                var acc = roundingBias
                for t in 0..<count {
                    acc &+= Int32(kernel.weights[o * kernel.taps + t]) &* Int32(source.pixels[(start + t) * rowBytes + i])
                }
                output.pixels[o * rowBytes + i] = clampToByte(acc)
            }
        }
        return output
    }
}
