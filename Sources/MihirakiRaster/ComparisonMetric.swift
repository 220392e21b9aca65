import CMihirakiKernels

/// What makes a pixel differ in `compare` (SPEC §5b). In every metric a pixel
/// whose samples are equal never differs, and one that differs but looks like
/// anti-aliasing (pixelmatch's test) is tolerated unless asked otherwise.
public enum ComparisonMetric: String, CaseIterable, Sendable {
    /// pixelmatch's YIQ colour distance against `35215 · threshold²`;
    /// threshold 0…1, default 0.1.
    case pixelmatch
    /// CIEDE2000 (ΔE00) of the two colours blended over white; a pixel
    /// differs where ΔE00 is over the threshold, default 1.0, one
    /// just-noticeable difference.
    case ciede2000
    /// Local SSIM on Rec. 601 luma, Gaussian window σ = 1.5; a pixel
    /// differs where its samples differ and its SSIM is under the
    /// threshold, default 0.98.
    case ssim

    /// The threshold when none is given.
    public var defaultThreshold: Double {
        switch self {
        case .pixelmatch: 0.1
        case .ciede2000: 1.0
        case .ssim: 0.98
        }
    }

    /// The thresholds that mean something on this metric's scale.
    public var thresholds: ClosedRange<Double> {
        switch self {
        case .pixelmatch: 0...1
        case .ciede2000: 0...100
        case .ssim: -1...1
        }
    }
}

/// Per-pixel scores of a perceptual metric, computed only on the rows that
/// differ: ΔE00 a row at a time, SSIM over whole runs of differing rows
/// (its window reaches five rows either way).
struct MetricScores {
    let metric: ComparisonMetric
    let threshold: Float
    private var ssim: [Float] = []
    private var row: [Float]

    /// - Parameter differs: whether row y of the two images differs at all.
    init(metric: ComparisonMetric, threshold: Double, expected: UnsafeRawBufferPointer, actual: UnsafeRawBufferPointer,
         width: Int, height: Int, differs: (Int) -> Bool) {
        self.metric = metric
        self.threshold = Float(threshold)
        row = metric == .ciede2000 ? [Float](repeating: 0, count: width) : []
        guard metric == .ssim, (0..<height).contains(where: differs) else { return }
        let count = width * height
        var lumaA = [Float](repeating: 0, count: count), lumaB = [Float](repeating: 0, count: count)
        mh_luma601_rgba(expected.baseAddress!.assumingMemoryBound(to: UInt8.self), count, &lumaA)
        mh_luma601_rgba(actual.baseAddress!.assumingMemoryBound(to: UInt8.self), count, &lumaB)
        var map = [Float](repeating: 1, count: count)
        var y = 0
        while y < height {
            guard differs(y) else { y += 1; continue }
            var end = y + 1
            while end < height && differs(end) { end += 1 }
            let done = map.withUnsafeMutableBufferPointer {
                mh_ssim_rows(lumaA, lumaB, Int32(width), Int32(height), Int32(y), Int32(end), $0.baseAddress! + y * width)
            }
            // Out of memory for the window's moments: every pixel of the run differs.
            if done == 0 { for i in y * width..<end * width { map[i] = -1 } }
            y = end
        }
        ssim = map
    }

    /// Prepares row y (ΔE00 of its pixels); call before `exceeds` on that row.
    mutating func start(row y: Int, width: Int, expected: UnsafeRawBufferPointer, actual: UnsafeRawBufferPointer) {
        guard metric == .ciede2000 else { return }
        let a = expected.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * width * 4
        let b = actual.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * width * 4
        row.withUnsafeMutableBufferPointer { mh_ciede2000_rgba(a, b, width, $0.baseAddress!) }
    }

    /// Whether pixel x of the row started (pixel i of the image) is past the threshold.
    func exceeds(x: Int, i: Int) -> Bool {
        metric == .ciede2000 ? row[x] > threshold : ssim[i] < threshold
    }
}
