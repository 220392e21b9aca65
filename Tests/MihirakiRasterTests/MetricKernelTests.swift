import CMihirakiKernels
import Foundation
import MihirakiRaster
import MihirakiTestSupport
import Testing

/// The perceptual metrics of `compare --metric` (SPEC §5b): the scalar
/// references against published and independent values, the vectorized
/// kernels against the references and the same bits at every level.
extension KernelLevels {
    @Suite("Perceptual metric kernels", .tags(.unit))
    struct MetricKernelTests {
        /// Sharma, Wu and Dalal (2005), Table 1: L1 a1 b1, L2 a2 b2, ΔE00 to four places.
        static let sharma: [[Double]] = [
            [50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425], [50, 3.1571, -77.2803, 50, 0, -82.7485, 2.8615],
            [50, 2.8361, -74.0200, 50, 0, -82.7485, 3.4412], [50, -1.3802, -84.2814, 50, 0, -82.7485, 1.0000],
            [50, -1.1848, -84.8006, 50, 0, -82.7485, 1.0000], [50, -0.9009, -85.5211, 50, 0, -82.7485, 1.0000],
            [50, 0, 0, 50, -1, 2, 2.3669], [50, -1, 2, 50, 0, 0, 2.3669],
            [50, 2.4900, -0.0010, 50, -2.4900, 0.0009, 7.1792], [50, 2.4900, -0.0010, 50, -2.4900, 0.0010, 7.1792],
            [50, 2.4900, -0.0010, 50, -2.4900, 0.0011, 7.2195], [50, 2.4900, -0.0010, 50, -2.4900, 0.0012, 7.2195],
            [50, -0.0010, 2.4900, 50, 0.0009, -2.4900, 4.8045], [50, -0.0010, 2.4900, 50, 0.0010, -2.4900, 4.8045],
            [50, -0.0010, 2.4900, 50, 0.0011, -2.4900, 4.7461], [50, 2.5, 0, 50, 0, -2.5, 4.3065],
            [50, 2.5, 0, 73, 25, -18, 27.1492], [50, 2.5, 0, 61, -5, 29, 22.8977],
            [50, 2.5, 0, 56, -27, -3, 31.9030], [50, 2.5, 0, 58, 24, 15, 19.4535],
            [50, 2.5, 0, 50, 3.1736, 0.5854, 1.0000], [50, 2.5, 0, 50, 3.2972, 0, 1.0000],
            [50, 2.5, 0, 50, 1.8634, 0.5757, 1.0000], [50, 2.5, 0, 50, 3.2592, 0.3350, 1.0000],
            [60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644],
            [63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630],
            [61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731],
            [35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645],
            [22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373],
            [36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146],
            [90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441],
            [90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381],
            [6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377],
            [2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082],
        ]

        @Test("ΔE00 of Sharma, Wu and Dalal's 34 pairs, either way round, within 10⁻⁴")
        func sharmaPairs() {
            #expect(Self.sharma.count == 34)
            for row in Self.sharma {
                let first = Array(row[0..<3]), second = Array(row[3..<6])
                #expect(abs(mh_ciede2000_lab(first, second) - row[6]) < 1e-4, "\(row)")
                #expect(abs(mh_ciede2000_lab(second, first) - row[6]) < 1e-4, "\(row) reversed")
            }
        }

        /// Random RGBA pairs, a third of them near each other (a few levels apart), some see-through.
        static func pairs(_ count: Int, seed: UInt64, opaque: Bool) -> ([UInt8], [UInt8]) {
            var state = seed
            func next() -> UInt8 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            var a = [UInt8](repeating: 0, count: count * 4), b = a
            for i in 0..<count {
                let near = i % 3 == 0
                for k in 0..<3 {
                    a[4 * i + k] = next()
                    b[4 * i + k] = near ? UInt8(clamping: Int(a[4 * i + k]) + Int(next() % 7) - 3) : next()
                }
                a[4 * i + 3] = opaque || i % 5 != 0 ? 255 : next()
                b[4 * i + 3] = opaque || i % 7 != 0 ? 255 : next()
            }
            return (a, b)
        }

        static func kernel(_ a: [UInt8], _ b: [UInt8]) -> [Float] {
            var out = [Float](repeating: -1, count: a.count / 4)
            mh_ciede2000_rgba(a, b, a.count / 4, &out)
            return out
        }

        @Test("The vectorized ΔE00 is the double reference's within 0.002, with the same bits at every level")
        func kernelAgainstReference() {
            #expect(mh_kernels_level() == 3, "this machine has AVX2, so its kernels are the ones tested first")
            let (a, b) = Self.pairs(200_003, seed: 11, opaque: false)
            var reference = [Double](repeating: -1, count: a.count / 4)
            mh_ciede2000_rgba_scalar(a, b, a.count / 4, &reference)
            let simd = Self.kernel(a, b)
            let worst = zip(simd, reference).map { abs(Double($0) - $1) }.max() ?? .infinity
            #expect(worst < 0.002, "worst difference \(worst)")
            defer { mh_kernels_limit(3) }
            mh_kernels_limit(1)
            #expect(Self.kernel(a, b) == simd)
        }

        @Test("The vectorized ΔE00 is scikit-image's deltaE_ciede2000 within 0.02 on 10⁶ random sRGB pairs")
        func againstScikitImage() throws {
            let count = 1_000_000
            let (a, b) = Self.pairs(count, seed: 12, opaque: true)
            var rgb = [UInt8](repeating: 0, count: count * 6)
            for i in 0..<count { for k in 0..<3 { rgb[6 * i + k] = a[4 * i + k]; rgb[6 * i + 3 + k] = b[4 * i + k] } }
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Data(rgb).write(to: URL(fileURLWithPath: folder + "/pairs"))
            let run = try runTool("/usr/bin/env", ["python3", Fixtures.packageRoot.path + "/scripts/metrics-reference.py", "ciede2000",
                                                   folder + "/pairs", folder + "/out"])
            try #require(run.status == 0, "\(run.stderr)")
            let reference = try doubles(folder + "/out")
            try #require(reference.count == count)
            let simd = Self.kernel(a, b)
            let worst = zip(simd, reference).map { abs(Double($0) - $1) }.max() ?? .infinity
            #expect(worst < 0.02, "worst difference \(worst)")
        }

        /// A page-like luma plane: smooth shading, edges and noise, brightness from `base`.
        static func plane(width: Int, height: Int, seed: UInt64, base: Float) -> [Float] {
            var state = seed
            return (0..<width * height).map { i in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let x = Float(i % width), y = Float(i / width)
                let edge: Float = (Int(x) / 9 + Int(y) / 7) % 2 == 0 ? 60 : 0
                return min(255, base + 0.4 * x + 0.3 * y + edge + Float(state >> 59))
            }
        }

        static func ssim(_ a: [Float], _ b: [Float], _ width: Int, _ height: Int, rows: Range<Int>) -> [Float] {
            var out = [Float](repeating: -9, count: width * rows.count)
            #expect(mh_ssim_rows(a, b, Int32(width), Int32(height), Int32(rows.lowerBound), Int32(rows.upperBound), &out) == 1)
            return out
        }

        static let sizes = [(64, 48), (7, 5), (1, 1), (3, 20), (31, 2), (130, 17)]

        @Test("The vectorized SSIM map is the double reference's within 10⁻⁴, any rows, the same bits at every level")
        func ssimAgainstReference() {
            defer { mh_kernels_limit(3) }
            for (n, (width, height)) in Self.sizes.enumerated() {
                let a = Self.plane(width: width, height: height, seed: UInt64(n), base: 40)
                var b = a
                for i in stride(from: 0, to: b.count, by: 3) { b[i] = max(0, b[i] - Float(i % 11)) }
                var reference = [Double](repeating: 0, count: a.count)
                mh_ssim_rows_scalar(a, b, Int32(width), Int32(height), 0, Int32(height), &reference)
                mh_kernels_limit(3)
                let whole = Self.ssim(a, b, width, height, rows: 0..<height)
                let worst = zip(whole, reference).map { abs(Double($0) - $1) }.max() ?? .infinity
                #expect(worst < 1e-4, "\(width)×\(height): worst difference \(worst)")
                let middle = height / 3..<max(height / 3 + 1, height - 1)
                #expect(Self.ssim(a, b, width, height, rows: middle) == Array(whole[middle.lowerBound * width..<middle.upperBound * width]))
                mh_kernels_limit(1)
                #expect(Self.ssim(a, b, width, height, rows: 0..<height) == whole, "\(width)×\(height) at level 1")
            }
            var none = [Float](repeating: 0, count: 4)
            #expect(mh_ssim_rows([0, 0], [0, 0], 2, 1, 0, 2, &none) == 0, "rows past the plane")
        }

        @Test("SSIM is scikit-image's structural_similarity map within 0.001, same window, on luma")
        func ssimAgainstScikitImage() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            for (n, (width, height)) in [(96, 64), (23, 41), (12, 12)].enumerated() {
                let a = Self.plane(width: width, height: height, seed: UInt64(20 + n), base: 30)
                var b = Self.plane(width: width, height: height, seed: UInt64(40 + n), base: 32)
                for i in 0..<b.count where i % 17 < 5 { b[i] = a[i] }
                try a.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: folder + "/a")) }
                try b.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: folder + "/b")) }
                let run = try runTool("/usr/bin/env", ["python3", Fixtures.packageRoot.path + "/scripts/metrics-reference.py", "ssim",
                                                       "\(width)", "\(height)", folder + "/a", folder + "/b", folder + "/out"])
                try #require(run.status == 0, "\(run.stderr)")
                let reference = try doubles(folder + "/out")
                let ours = Self.ssim(a, b, width, height, rows: 0..<height)
                let worst = zip(ours, reference).map { abs(Double($0) - $1) }.max() ?? .infinity
                #expect(reference.count == width * height && worst < 0.001, "\(width)×\(height): worst difference \(worst)")
            }
        }

        func doubles(_ path: String) throws -> [Double] {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        }

        func temporaryFolder() throws -> String {
            let path = NSTemporaryDirectory() + "mihiraki-metrics-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }
    }
}
