import CMihirakiKernels

/// High-quality separable resampling (Lanczos-3) in fixed point.
///
/// Rows arrive one at a time (straight from a decoder, so a full-size page
/// never has to exist in memory), are resampled along x into an 8-bit
/// intermediate as they come, and the intermediate is then resampled along y
/// straight into the destination rectangle. A pass whose axis keeps its size
/// is a copy. All arithmetic is integer, so the result depends only on the
/// input and the sizes; `reference` is the plain scalar statement of it, and
/// the vector kernels (`mh_resample_row`, `mh_resample_columns`) are tested
/// against it bit for bit.
public enum LanczosResampler {
    /// Bytes every source row buffer must have past its last pixel: the
    /// vector kernels read whole groups of taps.
    package static let rowSlack = 16

    /// `source` resampled to exactly `width × height`, same channel layout.
    public static func resample(_ source: PixelBuffer, width: Int, height: Int) -> PixelBuffer {
        precondition(width > 0 && height > 0, "empty target")
        if width == source.width && height == source.height { return source }
        var output = PixelBuffer(width: width, height: height, channels: source.channels)
        let rowBytes = source.rowBytes
        var y = 0
        source.pixels.withUnsafeBufferPointer { src in
            draw(sourceWidth: source.width, sourceHeight: source.height, channels: source.channels,
                 into: &output, x: 0, y: 0, width: width, height: height) { row in
                row.update(from: src.baseAddress! + y * rowBytes, count: rowBytes)
                y += 1
            }
        }
        return output
    }

    /// Resamples a `sourceWidth × sourceHeight` image, supplied row by row,
    /// into the `width × height` rectangle at `(x, y)` of `destination`.
    ///
    /// - Parameters:
    ///   - channels: bytes per pixel, the same in source and destination.
    ///   - nextRow: writes the next source row (top to bottom) into a buffer
    ///     of `sourceWidth × channels` bytes plus `rowSlack`.
    /// - Precondition: the rectangle lies inside `destination`.
    package static func draw(sourceWidth: Int, sourceHeight: Int, channels: Int, into destination: inout PixelBuffer,
                            x: Int, y: Int, width: Int, height: Int,
                            nextRow: (UnsafeMutablePointer<UInt8>) throws -> Void) rethrows {
        precondition(width > 0 && height > 0 && sourceWidth > 0 && sourceHeight > 0, "empty image")
        precondition(x >= 0 && y >= 0 && x + width <= destination.width && y + height <= destination.height,
                     "rectangle outside the destination")
        precondition(destination.channels == channels, "channel layouts differ")
        let c = channels, outRow = width * c, stride = destination.rowBytes
        let horizontal = width != sourceWidth ? ResampleKernel.shared(inputSize: sourceWidth, outputSize: width) : nil
        let vertical = height != sourceHeight ? ResampleKernel.shared(inputSize: sourceHeight, outputSize: height) : nil
        var row = [UInt8](repeating: 0, count: sourceWidth * c + rowSlack)
        // Without a vertical pass, rows go straight to the destination.
        var intermediate = [UInt8](unsafeUninitializedCapacity: vertical == nil ? 0 : outRow * sourceHeight) {
            _, count in count = vertical == nil ? 0 : outRow * sourceHeight
        }
        try destination.pixels.withUnsafeMutableBufferPointer { dst in
            let origin = dst.baseAddress! + y * stride + x * c
            try intermediate.withUnsafeMutableBufferPointer { mid in
                try row.withUnsafeMutableBufferPointer { source in
                    for line in 0..<sourceHeight {
                        try nextRow(source.baseAddress!)
                        let target = vertical == nil ? origin + line * stride : mid.baseAddress! + line * outRow
                        if let horizontal {
                            resampleRow(source.baseAddress!, channels: c, kernel: horizontal, into: target)
                        } else {
                            target.update(from: source.baseAddress!, count: outRow)
                        }
                    }
                }
                if let vertical {
                    resampleColumns(mid.baseAddress!, rowBytes: outRow, kernel: vertical, into: origin, stride: stride)
                }
            }
        }
    }

    static func resampleRow(_ source: UnsafePointer<UInt8>, channels: Int, kernel: ResampleKernel,
                            into target: UnsafeMutablePointer<UInt8>) {
        kernel.starts.withUnsafeBufferPointer { starts in
            kernel.counts.withUnsafeBufferPointer { counts in
                kernel.weights.withUnsafeBufferPointer { weights in
                    mh_resample_row(source, Int32(channels), starts.baseAddress, counts.baseAddress,
                                    weights.baseAddress, Int32(kernel.taps), Int32(kernel.outputSize), target)
                }
            }
        }
    }

    static func resampleColumns(_ source: UnsafePointer<UInt8>, rowBytes: Int, kernel: ResampleKernel,
                                into target: UnsafeMutablePointer<UInt8>, stride: Int) {
        kernel.starts.withUnsafeBufferPointer { starts in
            kernel.counts.withUnsafeBufferPointer { counts in
                kernel.weights.withUnsafeBufferPointer { weights in
                    mh_resample_columns(source, rowBytes, rowBytes, starts.baseAddress, counts.baseAddress,
                                        weights.baseAddress, Int32(kernel.taps), Int32(kernel.outputSize),
                                        target, stride)
                }
            }
        }
    }

    // MARK: Scalar reference

    /// The same result as `resample`, computed the plain way: each output
    /// sample a clamped, rounded fixed-point sum, x first, then y.
    public static func reference(_ source: PixelBuffer, width: Int, height: Int) -> PixelBuffer {
        var image = source
        if width != source.width {
            image = referenceHorizontal(image, kernel: ResampleKernel(inputSize: source.width, outputSize: width))
        }
        if height != source.height {
            image = referenceVertical(image, kernel: ResampleKernel(inputSize: source.height, outputSize: height))
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
