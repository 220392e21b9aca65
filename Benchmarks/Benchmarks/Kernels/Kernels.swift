import Benchmark
import Foundation
import MihirakiCodecs
import MihirakiRaster

// The hot paths of one spread, each measured alone: the resampler's two
// passes (with the scalar reference they are tested against beside them, so
// the SIMD kernels' gain is visible), the PNG writer, and decoding a page row
// by row. Inputs are the sizes of the benchmark corpus: a 1500×2134 page drawn
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

    for name in ["page3.jpg", "page2.png"] {
        let bytes = sampleBookFile(name)
        Benchmark("Decode row by row (\(name), sample book)") { benchmark in
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
