import CMihirakiKernels
import Testing

/// The exact inverse DCT that automatic pairing reads a JPEG page's edges
/// with (`mh_idct_exact`): the AVX2 kernel, the scalar reference and the
/// formula summed densely here give the same integers.
extension KernelLevels {
    @Suite("Exact inverse DCT kernel")
    struct IDCTKernelTests {
        /// `Σ_v Σ_u T[y][v]·T[x][u]·F(u,v)`, every term, in Swift.
        static func dense(_ coefficients: [Int32]) -> [Int64] {
            let basis = withUnsafeBytes(of: mh_idct_basis) { Array($0.bindMemory(to: Int32.self)) }
            var out = [Int64](repeating: 0, count: 64)
            for y in 0..<8 {
                for x in 0..<8 {
                    var sum: Int64 = 0
                    for v in 0..<8 {
                        for u in 0..<8 {
                            sum += Int64(basis[y * 8 + v]) * Int64(basis[x * 8 + u]) * Int64(coefficients[v * 8 + u])
                        }
                    }
                    out[y * 8 + x] = sum
                }
            }
            return out
        }

        static func run(_ function: (UnsafePointer<Int32>, UnsafeMutablePointer<Int64>) -> Void, _ coefficients: [Int32]) -> [Int64] {
            var out = [Int64](repeating: -1, count: 64)
            coefficients.withUnsafeBufferPointer { c in out.withUnsafeMutableBufferPointer { function(c.baseAddress!, $0.baseAddress!) } }
            return out
        }

        /// Blocks as a JPEG holds them (a DC alone, a few low frequencies, every
        /// place), at the kernel's limit of ±2^17 and past it, and a hostile
        /// file's extremes (a 16-bit coefficient times a 16-bit quantizer).
        static func blocks() -> [[Int32]] {
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            func next(_ bound: Int64) -> Int32 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int32(Int64(state >> 33) % (2 * bound + 1) - bound)
            }
            var blocks: [[Int32]] = [[Int32](repeating: 0, count: 64)]
            var dc = [Int32](repeating: 0, count: 64); dc[0] = 1016; blocks.append(dc)
            for density in [1, 3, 10, 64] {
                for bound: Int64 in [64, 2048, 1 << 17, (1 << 17) + 1, 1 << 24] {
                    for _ in 0..<40 {
                        var block = [Int32](repeating: 0, count: 64)
                        for _ in 0..<density { block[Int(abs(next(1 << 20))) % 64] = next(bound) }
                        blocks.append(block)
                    }
                }
            }
            for extreme: Int32 in [1 << 17, -(1 << 17), (1 << 17) + 1, -(1 << 17) - 1, 32767 * 65535, -32768 * 65535] {
                blocks.append([Int32](repeating: extreme, count: 64))
                var alternating = [Int32](repeating: 0, count: 64)
                for i in 0..<64 { alternating[i] = i % 2 == 0 ? extreme : -extreme }
                blocks.append(alternating)
            }
            return blocks
        }

        @Test("The kernel in use (AVX2 on this machine) equals the scalar reference and the dense sum, bit for bit")
        func matchesReference() {
            #expect(mh_kernels_level() == 3, "this machine has AVX2, so its kernel is the one tested")
            let blocks = Self.blocks()
            #expect(blocks.count > 800)
            for block in blocks {
                let dense = Self.dense(block)
                #expect(Self.run(mh_idct_exact, block) == dense, "\(block)")
                #expect(Self.run(mh_idct_exact_scalar, block) == dense, "\(block)")
            }
        }

        @Test("A DC alone is a flat block: every pixel 1448² times it")
        func flat() {
            var block = [Int32](repeating: 0, count: 64)
            block[0] = -520
            #expect(Self.run(mh_idct_exact, block) == [Int64](repeating: -520 * 1448 * 1448, count: 64))
        }
    }
}
