import MihirakiRaster
import MihirakiCore
import MihirakiCodecs

/// ``StripScore``: lines and area edges along slopes, and the share that continues across the
/// spine.
extension StripScore {
    /// The strip's darkness summed along each slope (``slopes`` × ``bands``,
    /// slope by slope, bands contiguous; slope index 12 flat), in 1/4096 of
    /// the white summed over the 24 columns and ten steps: band y of the
    /// edge meets column k at y + step·k/10 bands, clamped to the strip.
    package static func response(_ strip: Strip, fan: Fan = .lines) -> [Int64] {
        let slopes = fan.count
        let dark = strip.dark
        var response = [Int64](repeating: 0, count: slopes * bands)
        // One slope's sums in 32 bits (``Strip/dark``), which the compiler carries out several bands at a time.
        var sums = [Int32](repeating: 0, count: bands)
        dark.withUnsafeBufferPointer { dark in
            sums.withUnsafeMutableBufferPointer { sums in
                let row = sums.baseAddress!
                for s in 0..<slopes where fan.computed.contains(abs(s - slopes / 2)) {
                    let step = s - slopes / 2
                    for y in 0..<bands { row[y] = 0 }
                    for k in 0..<depth {
                        let column = dark.baseAddress! + k * bands
                        // Along slope `step`, band y of the edge meets column k at y + step·k/10 bands:
                        // `whole` bands and `t` tenths below, clamped to the strip at either end.
                        let offset = step * k, whole = offset >= 0 ? offset / 10 : -((-offset + 9) / 10)
                        let t = Int32(offset - 10 * whole)
                        // Inside the strip both neighbours exist; past either end the position is clamped.
                        let inside = max(0, -whole)..<max(max(0, -whole), min(bands, bands - 1 - whole))
                        // Wrapping operations, which never wrap (``darkLimit``), let the loop run several bands at a time.
                        let (low, high, near) = (column + whole, column + whole + 1, 10 - t)
                        for y in inside {
                            row[y] = row[y] &+ near &* low[y] &+ t &* high[y]
                        }
                        for y in 0..<inside.lowerBound { row[y] += clamped(y, offset, column) }
                        for y in inside.upperBound..<bands { row[y] += clamped(y, offset, column) }
                    }
                    for y in 0..<bands { response[s * bands + y] = Int64(row[y]) }
                }
            }
        }
        return response
    }

    /// Band y's step along a slope at `offset` tenths of a band, past either end of the strip: the
    /// position clamped to it.
    @inline(__always)
    private static func clamped(_ y: Int, _ offset: Int, _ column: UnsafePointer<Int32>) -> Int32 {
        let position = min(max(10 * y + offset, 0), 10 * (bands - 1))
        let low = position / 10, tenths = Int32(position % 10), high = min(low + 1, bands - 1)
        return (10 - tenths) * column[low] + tenths * column[high]
    }


    /// What stands out of `values` (``slopes`` × ``bands``, slope by slope)
    /// at each height and slope: its value less the strongest 4 to 10 bands
    /// above or below it (clamped to the strip) and a floor of 0.04 of the
    /// white, never under 0; laid out band by band (``bands`` × ``slopes``).
    package static func standingOut(_ values: [Int64], fan: Fan = .lines) -> [Int64] {
        let slopes = fan.count
        let floor = unit * Int64(depth) * 10 * 4 / 100
        var out = [Int64](repeating: 0, count: bands * slopes)
        // One slope's bands with 10 copies of either end band outside (the neighbours clamped to the strip);
        // seven[i] is the best of padded bands i…i+6.
        let padded = bands + 20
        var band = [Int64](repeating: 0, count: padded)
        values.withUnsafeBufferPointer { values in
            out.withUnsafeMutableBufferPointer { out in
                for s in 0..<slopes where fan.computed.contains(abs(s - slopes / 2)) {
                    let row = s * bands
                    for i in 0..<padded { band[i] = values[row + min(max(i - 10, 0), bands - 1)] }
                    let seven = bestOfSeven(band, stride: 1)
                    for y in 0..<bands {
                        // Bands y−10…y−4 are padded y…y+6; bands y+4…y+10 are padded y+14…y+20.
                        let ring = seven[y] > seven[y + 14] ? seven[y] : seven[y + 14]
                        let standing = values[row + y] - ring - floor
                        out[y * slopes + s] = standing > 0 ? standing : 0
                    }
                }
            }
        }
        return out
    }

    /// The best of seven rows `stride` apart, from each row that has six
    /// more after it (rows i…i+6 at index i), through the best of two and of
    /// four: three comparisons a value rather than six.
    package static func bestOfSeven(_ values: [Int64], stride: Int) -> [Int64] {
        var two = [Int64](repeating: 0, count: values.count - stride)
        var four = [Int64](repeating: 0, count: values.count - 3 * stride)
        var seven = [Int64](repeating: 0, count: values.count - 6 * stride)
        values.withUnsafeBufferPointer { values in
            two.withUnsafeMutableBufferPointer { two in
                for i in 0..<two.count { two[i] = values[i] > values[i + stride] ? values[i] : values[i + stride] }
            }
        }
        two.withUnsafeBufferPointer { two in
            four.withUnsafeMutableBufferPointer { four in
                for i in 0..<four.count { four[i] = two[i] > two[i + 2 * stride] ? two[i] : two[i + 2 * stride] }
            }
        }
        four.withUnsafeBufferPointer { four in
            seven.withUnsafeMutableBufferPointer { seven in
                for i in 0..<seven.count { seven[i] = four[i] > four[i + 3 * stride] ? four[i] : four[i + 3 * stride] }
            }
        }
        return seven
    }

    /// Line strength by height at the edge and slope (``bands`` ×
    /// ``slopes``, slope index 12 flat, in 1/4096 of the white summed over
    /// the 24 columns and ten steps): the strip's darkness along each slope
    /// (``response(_:)``), less the strongest response 4 to 10 bands above or
    /// below it and a floor of 0.04 of the white, never under 0.
    package static func lines(_ strip: Strip) -> [Int64] { lines(response: response(strip)) }

    package static func lines(response: [Int64]) -> [Int64] { standingOut(response) }

    /// Edge strength by height and slope, as ``lines(_:)`` measures lines:
    /// where the strip turns lighter below a height along a slope (the
    /// darkness along it ``edgeStep`` bands above less that as far below),
    /// then where it turns darker, each less the strongest of the same kind
    /// 4 to 10 bands away and the floor. The boundary of a region, not only
    /// a drawn line: a sky meeting a roof, a tone patch's side, a stripe.
    package static func edges(response: [Int64]) -> (lighter: [Int64], darker: [Int64]) {
        var lighter = [Int64](repeating: 0, count: response.count), darker = lighter
        for s in 0..<slopes {
            let row = s * bands
            for y in 0..<bands {
                let step = response[row + max(y - edgeStep, 0)] - response[row + min(y + edgeStep, bands - 1)]
                lighter[row + y] = step > 0 ? step : 0
                darker[row + y] = step < 0 ? -step : 0
            }
        }
        return (standingOut(lighter), standingOut(darker))
    }

}
