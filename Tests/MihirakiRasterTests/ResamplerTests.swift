import CMihirakiKernels
import Foundation
import MihirakiTestSupport
import Testing
@testable import MihirakiRaster

/// A straightforward floating-point Lanczos-3 with the same centre convention,
/// footprint and pass order (horizontal, then vertical), clamped per pass like
/// the fixed-point version: the reference the integer resampler must match
/// within one level.
func referenceResample(_ image: PixelBuffer, width: Int, height: Int) -> PixelBuffer {
    func pass(_ src: [Double], _ inW: Int, _ inH: Int, _ c: Int, outW: Int, outH: Int, horizontal: Bool) -> [Double] {
        let inSize = horizontal ? inW : inH, outSize = horizontal ? outW : outH
        let scale = Double(inSize) / Double(outSize), fs = max(scale, 1), support = 3 * fs
        var out = [Double](repeating: 0, count: outW * outH * c)
        for o in 0..<outSize {
            let center = (Double(o) + 0.5) * scale
            let first = max(Int((center - support + 0.5).rounded(.down)), 0)
            let last = min(Int((center + support + 0.5).rounded(.down)), inSize)
            var weights: [Double] = []
            for i in first..<last { weights.append(ResampleKernel.lanczos3((Double(i) - center + 0.5) / fs)) }
            let sum = weights.reduce(0, +)
            let lines = horizontal ? outH : outW
            for line in 0..<lines {
                for k in 0..<c {
                    var acc = 0.0
                    for (t, w) in weights.enumerated() {
                        let i = first + t
                        let idx = horizontal ? (line * inW + i) * c + k : (i * inW + line) * c + k
                        acc += w / sum * src[idx]
                    }
                    let idx = horizontal ? (line * outW + o) * c + k : (o * outW + line) * c + k
                    out[idx] = min(max(acc.rounded(), 0), 255)
                }
            }
        }
        return out
    }
    var data = image.pixels.map(Double.init)
    var w = image.width, h = image.height
    if width != w { data = pass(data, w, h, image.channels, outW: width, outH: h, horizontal: true); w = width }
    if height != h { data = pass(data, w, h, image.channels, outW: w, outH: height, horizontal: false); h = height }
    return PixelBuffer(width: w, height: h, channels: image.channels, pixels: data.map { UInt8($0) })
}

func noiseImage(width: Int, height: Int, channels: Int, seed: UInt64) -> PixelBuffer {
    var state = seed
    var pixels = [UInt8](repeating: 0, count: width * height * channels)
    for i in pixels.indices {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
    }
    return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
}

/// The suites that set or check the kernel level the C kernels dispatch on
/// (`mh_kernels_limit`, one setting for the whole process): they run one
/// after another, so none checks the level while another has lowered it.
/// Other tests may run at any level meanwhile: every level gives the same
/// bytes.
@Suite("The kernels at each level", .serialized)
struct KernelLevels {}

extension KernelLevels {
    @Suite("Lanczos resampler", .tags(.unit), .timeLimit(.minutes(10)))
    struct ResamplerTests {
        @Test("Integer weights sum to exactly one for every output sample",
              arguments: [(1, 7), (7, 1), (100, 37), (37, 100), (1500, 987), (13, 13), (4000, 3)])
        func weightsSumToOne(sizes: (Int, Int)) {
            let kernel = ResampleKernel(inputSize: sizes.0, outputSize: sizes.1)
            for o in 0..<kernel.outputSize {
                let base = o * kernel.taps
                let sum = (0..<Int(kernel.counts[o])).reduce(Int32(0)) { $0 + Int32(kernel.weights[base + $1]) }
                #expect(sum == ResampleKernel.one)
                #expect(kernel.starts[o] >= 0 && Int(kernel.starts[o] + kernel.counts[o]) <= kernel.inputSize)
            }
        }

        @Test("Kernels kept for reuse are the kernels computed afresh, also past the 64 the cache keeps")
        func sharedKernels() {
            for output in 100..<170 {
                #expect(ResampleKernel.shared(inputSize: 1500, outputSize: output) == ResampleKernel(inputSize: 1500, outputSize: output))
            }
            #expect(ResampleKernel.shared(inputSize: 1500, outputSize: 100) == ResampleKernel(inputSize: 1500, outputSize: 100))
        }

        @Test("A flat image stays exactly flat, shrinking and enlarging", arguments: [1, 2, 3, 4])
        func flat(channels: Int) {
            let value: [UInt8] = [200, 17, 90, 255]
            let source = PixelBuffer(width: 37, height: 23, channels: channels,
                                     pixels: (0..<37 * 23).flatMap { _ in value.prefix(channels) })
            for (w, h) in [(10, 6), (80, 51), (37, 5), (3, 23), (1, 1)] {
                let out = LanczosResampler.resample(source, width: w, height: h)
                #expect(out.width == w && out.height == h && out.channels == channels)
                #expect(out.pixels == (0..<w * h).flatMap { _ in value.prefix(channels) })
            }
        }

        @Test("Same size is the identity")
        func identity() {
            let source = noiseImage(width: 19, height: 11, channels: 3, seed: 1)
            #expect(LanczosResampler.resample(source, width: 19, height: 11) == source)
        }

        @Test("Matches a floating-point reference within one level",
              arguments: [(31, 17, 12, 9), (12, 9, 31, 17), (64, 64, 21, 40), (9, 40, 60, 7), (200, 3, 33, 2)])
        func matchesReference(sizes: (Int, Int, Int, Int)) {
            for channels in [1, 4] {
                let source = noiseImage(width: sizes.0, height: sizes.1, channels: channels, seed: UInt64(sizes.2))
                let fast = LanczosResampler.resample(source, width: sizes.2, height: sizes.3)
                let reference = referenceResample(source, width: sizes.2, height: sizes.3)
                let worst = zip(fast.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(worst <= 1, "largest difference \(worst)")
            }
        }

        @Test("Shrinking averages instead of sampling: a 1-pixel checkerboard halves to mid-gray")
        func noAliasing() {
            let board = PixelBuffer(width: 64, height: 64, channels: 1,
                                    pixels: (0..<64 * 64).map { ($0 % 64 + $0 / 64) % 2 == 0 ? 0 : 255 })
            let out = LanczosResampler.resample(board, width: 16, height: 16)
            // Away from the borders every output pixel is the mean, 127 or 128.
            for y in 3..<13 { for x in 3..<13 { #expect((126...129).contains(Int(out.pixels[y * 16 + x]))) } }
        }

        // Serialized: its cases set the kernel level the others check
        // (``KernelLevels``).
        @Test("The SIMD path equals the scalar reference bit for bit, every layout, both directions, AVX2, SSSE3 and SSE2 kernels",
              .serialized, arguments: [1, 2, 3, 4])
        func simdMatchesScalar(channels: Int) {
            #expect(mh_kernels_level() == 3, "this machine has AVX2, so its kernels are the ones tested first")
            compareWithReference(channels: channels)
            // The SSSE3 and SSE2 kernels, as on CPUs without AVX2 or SSSE3.
            defer { mh_kernels_limit(3) }
            for level in [2, 1] {
                mh_kernels_limit(Int32(level))
                #expect(mh_kernels_level() == Int32(level))
                compareWithReference(channels: channels)
            }
        }

        func compareWithReference(channels: Int) {
            var seed: UInt64 = 5
            for (w, h, ow, oh) in [(37, 23, 11, 9), (11, 9, 37, 23), (64, 50, 63, 51), (5, 300, 17, 20), (300, 5, 19, 3),
                                   (1, 1, 40, 30), (129, 77, 128, 76), (33, 1, 5, 1), (16, 16, 16, 7),
                                   // A full-size page's scale (9–10 taps, one AVX2 step along x) and a
                                   // thumbnail's (20–21 taps: an AVX2 step and an SSE2 one); rows of
                                   // 32 bytes and more, with tails of 16 and fewer, along y.
                                   (150, 97, 99, 63), (150, 97, 53, 35), (51, 201, 49, 67)] {
                seed += 1
                let source = noiseImage(width: w, height: h, channels: channels, seed: seed)
                #expect(LanczosResampler.resample(source, width: ow, height: oh)
                        == LanczosResampler.reference(source, width: ow, height: oh), "\(w)×\(h) → \(ow)×\(oh)")
            }
            // Extremes that drive the clamps: a hard black/white edge overshoots both ways.
            let edge = PixelBuffer(width: 40, height: 40, channels: channels,
                                   pixels: (0..<1600 * channels).map { ($0 / channels) % 40 < 20 ? 0 : 255 })
            #expect(LanczosResampler.resample(edge, width: 97, height: 13) == LanczosResampler.reference(edge, width: 97, height: 13))
            // Drawing into a rectangle of a larger canvas touches only that rectangle.
            let source = noiseImage(width: 31, height: 29, channels: channels, seed: 77)
            var canvas = PixelBuffer(width: 60, height: 50, channels: channels)
            canvas.fill(x: 0, y: 0, width: 60, height: 50, color: Color(red: 7, green: 7, blue: 7, alpha: 7))
            var line = 0
            source.pixels.withUnsafeBufferPointer { src in
                LanczosResampler.draw(sourceWidth: 31, sourceHeight: 29, channels: channels, into: &canvas,
                                      x: 13, y: 4, width: 40, height: 21) { row in
                    row.update(from: src.baseAddress! + line * source.rowBytes, count: source.rowBytes)
                    line += 1
                }
            }
            var expected = PixelBuffer(width: 60, height: 50, channels: channels)
            expected.fill(x: 0, y: 0, width: 60, height: 50, color: Color(red: 7, green: 7, blue: 7, alpha: 7))
            expected.blit(LanczosResampler.reference(source, width: 40, height: 21), x: 13, y: 4)
            #expect(canvas == expected)
        }

        @Test("Results are the same however often they are computed (no hidden state)")
        func deterministic() {
            let source = noiseImage(width: 120, height: 80, channels: 4, seed: 9)
            let a = LanczosResampler.resample(source, width: 47, height: 91)
            let b = LanczosResampler.resample(source, width: 47, height: 91)
            #expect(a == b)
        }
    }
}
