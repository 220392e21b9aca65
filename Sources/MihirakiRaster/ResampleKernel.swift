import CMihirakiKernels
import Foundation
import Synchronization

/// Precomputed fixed-point weights for resampling one axis with Lanczos-3.
///
/// Output sample `o` reads `counts[o]` input samples from `starts[o]` and
/// weighs them with `weights[o * taps ..< o * taps + counts[o]]`; the rest of
/// each row of `taps` (a multiple of 8, for the vector kernels) is zero. Weights are
/// 16-bit integers scaled by `2^precisionBits` that sum to exactly `2^precisionBits`,
/// so a flat area stays flat and the results are the same on every CPU, for
/// every SIMD width and thread count.
package struct ResampleKernel: Hashable, Sendable {
    /// Fractional bits of every weight, defined once for the C kernels and
    /// this reference (`MH_RESAMPLE_PRECISION`).
    package static let precisionBits = Int(MH_RESAMPLE_PRECISION)
    package static let one: Int32 = 1 << precisionBits

    package let inputSize: Int
    package let outputSize: Int
    /// Weight slots per output sample: the widest footprint, rounded up to 8.
    package let taps: Int
    package let starts: [Int32]
    package let counts: [Int32]
    package let weights: [Int16]

    /// The kernel for `inputSize → outputSize`, made once per process and
    /// kept (the last 64 sizes made; the oldest goes first): a book's pages mostly share a size, and
    /// computing the weights (a sine each) cost 3 % of a full-size render.
    package static func shared(inputSize: Int, outputSize: Int) -> ResampleKernel {
        let key = Size(input: inputSize, output: outputSize)
        if let kernel = cache.withLock({ $0.kernels[key] }) { return kernel }
        let kernel = ResampleKernel(inputSize: inputSize, outputSize: outputSize)
        cache.withLock { cache in
            if cache.kernels[key] == nil {
                if cache.order.count == 64 { cache.kernels[cache.order.removeFirst()] = nil }
                cache.order.append(key)
            }
            cache.kernels[key] = kernel
        }
        return kernel
    }

    private struct Size: Hashable { var input, output: Int }
    private struct Cache { var kernels: [Size: ResampleKernel] = [:]; var order: [Size] = [] }
    private static let cache = Mutex(Cache())

    /// The Lanczos-3 window, `sinc(x)·sinc(x/3)` for `|x| < 3`.
    @inlinable
    package static func lanczos3(_ x: Double) -> Double {
        let ax = abs(x)
        if ax < 1e-12 { return 1 }
        if ax >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }

    /// Weights mapping `inputSize` samples onto `outputSize`, pixel centres
    /// aligned (`(o + 0.5) · in/out`). When shrinking, the window is widened by
    /// the scale factor so every input sample contributes (no aliasing).
    package init(inputSize: Int, outputSize: Int) {
        precondition(inputSize > 0 && outputSize > 0, "empty axis")
        self.inputSize = inputSize
        self.outputSize = outputSize
        let scale = Double(inputSize) / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = 3 * filterScale
        let window = min(Int((support).rounded(.up)) * 2 + 1, inputSize)
        let taps = (window + 7) / 8 * 8
        self.taps = taps
        var starts = [Int32](repeating: 0, count: outputSize)
        var counts = [Int32](repeating: 0, count: outputSize)
        var weights = [Int32](repeating: 0, count: outputSize * taps)
        var real = [Double](repeating: 0, count: window)
        for o in 0..<outputSize {
            let center = (Double(o) + 0.5) * scale
            var first = Int((center - support + 0.5).rounded(.down))
            var last = Int((center + support + 0.5).rounded(.down))  // exclusive
            first = max(first, 0)
            last = min(last, inputSize)
            if last - first > window { last = first + window }
            let count = max(last - first, 1)
            var sum = 0.0
            for t in 0..<count {
                let w = Self.lanczos3((Double(first + t) - center + 0.5) / filterScale)
                real[t] = w
                sum += w
            }
            // Quantise, then give the rounding drift to the heaviest tap so the
            // integer weights sum to exactly one.
            var total: Int32 = 0
            var heaviest = 0
            for t in 0..<count {
                let q = Int32((real[t] / sum * Double(Self.one)).rounded())
                weights[o * taps + t] = q
                total += q
                if q > weights[o * taps + heaviest] { heaviest = t }
            }
            weights[o * taps + heaviest] += Self.one - total
            starts[o] = Int32(first)
            counts[o] = Int32(count)
        }
        self.starts = starts
        self.counts = counts
        // Lanczos-3 weights lie within (-0.25, 1], so they always fit 16 bits.
        self.weights = weights.map { Int16($0) }
    }
}
