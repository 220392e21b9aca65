import Benchmark
import CMihirakiCodecs
import CMihirakiKernels
import Foundation
import MihirakiCodecs
import MihirakiRaster

// The hot paths of one spread, each measured alone: the resampler's two
// passes (with the scalar reference they are tested against beside them, so
// the SIMD kernels' gain is visible), the PNG writers (every compression, and
// the fast writer's scalar twin), and decoding a page row by row (JPEG, PNG,
// and lossy WebP pages gray and colour, read through the YUV path). Inputs are the sizes of the benchmark corpus: a 1500×2134 page drawn
// into a 987×1404 rectangle of a 2048×1536 spread.

/// A deterministic page: gradients plus noise, so no kernel meets flat input.
func page(width: Int, height: Int, channels: Int) -> PixelBuffer {
    var state: UInt32 = 2024
    var pixels = [UInt8](repeating: 0, count: width * height * channels)
    for y in 0..<height {
        for x in 0..<width {
            for c in 0..<channels {
                state = state &* 1_103_515_245 &+ 12345
                pixels[(y * width + x) * channels + c] = UInt8(truncatingIfNeeded: (x + y) / 8 + c * 40 + Int(state >> 29))
            }
        }
    }
    return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
}

/// A page of the committed sample book, for real JPEG data.
func sampleBookFile(_ name: String) -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return Array((try? Data(contentsOf: root.appendingPathComponent("TestImages/sample-book/" + name))) ?? Data())
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
                                           maxDuration: .seconds(3), maxIterations: 200)

    for channels in [1, 3] {
        let source = page(width: 1500, height: 2134, channels: channels)
        let kind = channels == 1 ? "gray" : "RGB"
        Benchmark("Resample along x, SIMD (\(kind) 1500→987)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(LanczosResampler.resample(source, width: 987, height: source.height))
            }
        }
        Benchmark("Resample along y, SIMD (\(kind) 2134→1404)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(LanczosResampler.resample(source, width: source.width, height: 1404))
            }
        }
        Benchmark("Resample both passes, SIMD (\(kind) 1500×2134→987×1404)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(LanczosResampler.resample(source, width: 987, height: 1404))
            }
        }
        // The same with the kernels held to SSE2, as on a CPU without SSSE3.
        Benchmark("Resample both passes, SSE2 only (\(kind) 1500×2134→987×1404)") { benchmark in
            mh_kernels_limit(1)
            defer { mh_kernels_limit(3) }
            for _ in benchmark.scaledIterations {
                blackHole(LanczosResampler.resample(source, width: 987, height: 1404))
            }
        }
        Benchmark("Resample both passes, scalar reference (\(kind) 1500×2134→987×1404)",
                  configuration: .init(maxIterations: 5)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(LanczosResampler.reference(source, width: 987, height: 1404))
            }
        }
    }

    for (channels, kind) in [(1, "gray"), (3, "RGB")] {
        let spread = page(width: 2048, height: 1536, channels: channels)
        for compression in PNGCompression.allCases {
            Benchmark("PNG writer, \(compression.rawValue) (\(kind) 2048×1536)") { benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(try PNGEncoder.encode(spread, compression: compression))
                }
            }
        }
    }

    // A page of paper: white with strokes, where the fast writer's zero runs matter.
    var paper = PixelBuffer(width: 2048, height: 1536, channels: 1, pixels: [UInt8](repeating: 250, count: 2048 * 1536))
    for y in 0..<1536 { for x in 0..<2048 where (x / 3 + y / 5) % 17 == 0 || (x * 7 + y) % 101 < 3 { paper.pixels[y * 2048 + x] = 20 } }
    for compression in [PNGCompression.fast, .default] {
        Benchmark("PNG writer, \(compression.rawValue) (paper, gray 2048×1536)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try PNGEncoder.encode(paper, compression: compression)) }
        }
    }
    for (channels, kind) in [(1, "gray"), (3, "RGB")] {
        let spread = page(width: 2048, height: 1536, channels: channels)
        Benchmark("PNG writer, fast, scalar twin (\(kind) 2048×1536)", configuration: .init(maxIterations: 10)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(fastPNG(spread, reference: 1)) }
        }
    }

    let pages = [("page3.jpg", sampleBookFile("page3.jpg")), ("page2.png", sampleBookFile("page2.png")),
                 ("gray lossy WebP 1500×2134", webp(page(width: 1500, height: 2134, channels: 1))),
                 ("colour lossy WebP 1500×2134", webp(page(width: 1500, height: 2134, channels: 3)))]
    for (name, bytes) in pages {
        Benchmark("Decode row by row (\(name))") { benchmark in
            for _ in benchmark.scaledIterations {
                var checksum = 0
                try PageDecoder.withRows(bytes) { width, height, channels, nextRow in
                    var row = [UInt8](repeating: 0, count: width * channels + 16)
                    try row.withUnsafeMutableBufferPointer { buffer in
                        for _ in 0..<height {
                            try nextRow(buffer.baseAddress!)
                            checksum &+= Int(buffer[0])
                        }
                    }
                }
                blackHole(checksum)
            }
        }
    }
}

/// `image` as a lossy WebP (quality 90), by libwebp through the spread writer.
func webp(_ image: PixelBuffer) -> [UInt8] {
    var encoding = SpreadEncoding()
    encoding.format = .webp
    encoding.quality = 90
    return try! SpreadEncoder.encode(image, with: encoding)
}

/// The fast PNG writer, SIMD (`reference` 0) or its scalar twin (1).
func fastPNG(_ image: PixelBuffer, reference: Int32) -> [UInt8] {
    var buffer = mh_buffer(), error = mh_error()
    let status = image.pixels.withUnsafeBytes {
        mh_png_encode_fast($0.baseAddress, UInt32(image.width), UInt32(image.height), image.rowBytes,
                           Int32(image.channels), reference, &buffer, &error)
    }
    precondition(status == MH_OK, "the fast PNG writer failed")
    defer { mh_buffer_free(&buffer) }
    return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
}
