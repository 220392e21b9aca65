import Foundation
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// `mihiraki compare`: pixelmatch-style comparison of image files or folders,
/// with ignore regions, masks, diff pictures, an HTML report and JUnit XML.
public enum ImageComparator {
    /// What counts as a difference, and where pictures go.
    public struct Options: Sendable {
        /// What makes a pixel differ (`--metric`): pixelmatch's YIQ distance,
        /// ΔE00 or local SSIM.
        public var metric = ComparisonMetric.pixelmatch
        /// The metric's threshold, on its own scale; `nil` for its default
        /// (`ComparisonMetric.defaultThreshold`).
        public var threshold: Double?
        /// Count anti-aliased pixels as differences too.
        public var includeAntialiased = false
        /// Allow up to this many differing pixels per image.
        public var maxDiffPixels = 0
        /// Allow up to this fraction of differing pixels per image.
        public var maxDiffRatio = 0.0
        /// Where to write diff pictures: a file (file mode) or a folder (folder mode).
        public var diffPath: String?
        /// Rectangles, in image pixels, whose pixels never count (`--ignore X,Y,W,H`).
        public var ignore: [(x: Int, y: Int, width: Int, height: Int)] = []
        /// A picture of the images' size whose non-black, non-transparent
        /// pixels never count (`--mask`); an image of another size is an error.
        public var mask: PixelBuffer?
        /// The folder of an HTML report: each comparison puts its pictures
        /// there, and ``writeReport(_:to:title:)`` then writes `index.html`.
        public var reportFolder: String?

        /// Exact comparison with pixelmatch's defaults, nothing ignored, no pictures.
        public init() {}

        var pixel: PixelMatch.Options {
            PixelMatch.Options(metric: metric, threshold: threshold, includeAntialiased: includeAntialiased)
        }

        /// Checks the values; every comparison does, so a program gets the
        /// command line's guarantees.
        /// - Throws: ``MihirakiError`` with code `.usage` naming the option.
        public func validate() throws {
            if let threshold, !metric.thresholds.contains(threshold) {
                let range = metric.thresholds
                throw MihirakiError(.usage, "--threshold for \(metric.rawValue) must be from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
            }
            guard maxDiffPixels >= 0, (0...1).contains(maxDiffRatio) else {
                throw MihirakiError(.usage, "--max-diff-pixels must be ≥ 0 and --max-diff-ratio between 0 and 1")
            }
            if let bad = ignore.first(where: { $0.x < 0 || $0.y < 0 || $0.width <= 0 || $0.height <= 0 }) {
                throw MihirakiError(.usage, "--ignore takes X,Y,W,H with X, Y ≥ 0 and W, H > 0 (got \(bad.x),\(bad.y),\(bad.width),\(bad.height))")
            }
        }
    }

    /// Where the pictures of one pair come from, for the report.
    struct Sources {
        /// The pair's name in the report folder: a relative path, never `..`.
        var key: String
        var expectedFile: String? = nil
        var actualFile: String? = nil
    }

    /// Compares two images already in memory.
    /// - Returns: the comparison; `.error` when the mask does not fit or a picture cannot be written.
    static func compare(expected: PixelBuffer, actual: PixelBuffer, name: String, options: Options,
                        diffPath: String? = nil, sources: Sources? = nil) -> FileComparison {
        let sources = sources ?? Sources(key: name)
        var result = FileComparison(name: name, status: .ok, totalPixels: expected.width * expected.height)
        let report = options.reportFolder.map { ReportAssets(folder: $0, key: sources.key) }
        do {
            guard expected.width == actual.width, expected.height == actual.height else {
                result.status = .diff
                result.detail = "size \(actual.width)×\(actual.height), expected \(expected.width)×\(expected.height)"
                result.pictures = try report?.add(expectedFile: sources.expectedFile, actualFile: sources.actualFile,
                                                  actual: actual)
                return result
            }
            let ignore = try ignoreMask(width: expected.width, height: expected.height, options: options)
            let makeDiff = diffPath != nil || report != nil
            // Same layout and same samples: nothing to measure, no diff to draw.
            if expected.channels == actual.channels && expected.pixels == actual.pixels {
                result.totalPixels -= PixelMatch.ignoredPixels(ignore)
                result.pictures = try report?.add(expectedFile: sources.expectedFile, actualFile: nil,
                                                  actual: sources.expectedFile == nil ? actual : nil, identical: true)
                return result
            }
            let match = PixelMatch.compare(expected.straightRGBA, actual.straightRGBA, options: options.pixel,
                                           ignore: ignore, makeDiff: makeDiff)
            result.differingPixels = match.differing
            result.antialiasedPixels = match.antialiased
            result.totalPixels -= match.ignored
            let allowed = match.differing <= options.maxDiffPixels || result.ratio <= options.maxDiffRatio
            result.status = match.differing == 0 || allowed ? .ok : .diff
            let showDiff = match.differing > 0 || match.antialiased > 0 || match.ignored > 0
            let diff = showDiff ? match.diffImage?.reducedForOutput() : nil
            if let diffPath, let diff, result.status == .diff || match.differing > 0 {
                try writePNG(diff, to: diffPath)
            }
            result.pictures = try report?.add(expectedFile: sources.expectedFile, actualFile: sources.actualFile,
                                              actual: actual, diff: diff)
        } catch let error as MaskMismatch {
            result.status = .error
            result.detail = error.description
        } catch {
            result.status = .error
            result.detail = "cannot write a picture: \(MihirakiError.from(error, path: diffPath ?? name).description)"
        }
        return result
    }

    struct MaskMismatch: Error, CustomStringConvertible {
        var description: String
    }

    /// One byte per pixel, non-zero where the pixel is ignored; `nil` when nothing is.
    static func ignoreMask(width: Int, height: Int, options: Options) throws -> [UInt8]? {
        guard !options.ignore.isEmpty || options.mask != nil else { return nil }
        var ignore = [UInt8](repeating: 0, count: width * height)
        for region in options.ignore {
            let x0 = max(0, region.x), y0 = max(0, region.y)
            let x1 = min(width, region.x + region.width), y1 = min(height, region.y + region.height)
            guard x0 < x1, y0 < y1 else { continue }
            for y in y0..<y1 { for x in x0..<x1 { ignore[y * width + x] = 1 } }
        }
        if let mask = options.mask {
            guard mask.width == width, mask.height == height else {
                throw MaskMismatch(description: "the mask is \(mask.width)×\(mask.height), the images \(width)×\(height)")
            }
            let c = mask.channels, colours = c == 2 || c == 4 ? c - 1 : c
            mask.pixels.withUnsafeBufferPointer { samples in
                for i in 0..<width * height {
                    let pixel = samples.baseAddress! + i * c
                    let visible = colours == c || pixel[c - 1] != 0
                    if visible && (0..<colours).contains(where: { pixel[$0] != 0 }) { ignore[i] = 1 }
                }
            }
        }
        return ignore
    }

    static func writePNG(_ image: PixelBuffer, to path: String) throws {
        let folder = FileSystem.parent(of: path)
        if !folder.isEmpty { try FileSystem.makeDirectories(folder) }
        try FileSystem.writeAtomically(try MihirakiError.wrapping(path: path) {
            try PNGEncoder.encode(image, compression: .fast)
        }, to: path)
    }
}
