import Glibc

/// An 8-bit image with interleaved samples and tightly packed rows.
///
/// `channels` is 1 (gray), 2 (gray + alpha), 3 (RGB) or 4 (RGBA). Inside a
/// spread the canvas is either gray or RGBA with *premultiplied* alpha, which
/// is what makes resampling pages with transparency correct.
public struct PixelBuffer: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Samples per pixel: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA; a rendered spread has straight alpha.
    public let channels: Int
    /// Rows top to bottom, `width × channels` bytes each, no padding.
    public var pixels: [UInt8]

    /// A buffer filled with zeros.
    package init(width: Int, height: Int, channels: Int) {
        precondition(width >= 0 && height >= 0 && (1...4).contains(channels), "invalid buffer shape")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = [UInt8](repeating: 0, count: width * height * channels)
    }

    /// A buffer whose every sample `body` writes: no zero-filling first, which
    /// on page-sized buffers costs as much as a resampling pass.
    /// - Precondition: `body` initialises all `width × height × channels` bytes.
    package init(width: Int, height: Int, channels: Int,
                writingEverySample body: (UnsafeMutableBufferPointer<UInt8>) throws -> Void) rethrows {
        precondition(width >= 0 && height >= 0 && (1...4).contains(channels), "invalid buffer shape")
        self.width = width
        self.height = height
        self.channels = channels
        let count = width * height * channels
        self.pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try body(buffer)
            initialized = count
        }
    }

    /// Asks the kernel to back `buffer`, not yet written, with 2 MiB pages
    /// where it can (`MADV_HUGEPAGE`). For a large buffer that is kept while
    /// others are made, so its memory is fresh, this cuts the page faults
    /// that fill it 512-fold; the pixels are the same either way.
    package static func preferringHugePages(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        let huge = 2 << 20, address = Int(bitPattern: base)
        let start = (address + huge - 1) & ~(huge - 1), end = (address + buffer.count) & ~(huge - 1)
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
    }

    /// Wraps existing samples; `pixels.count` must be `width * height * channels`.
    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * channels, "sample count does not match the shape")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// Bytes per row.
    public var rowBytes: Int { width * channels }

    /// The pixel at `(x, y)` as straight RGBA (gray is expanded).
    package func rgba(x: Int, y: Int) -> Color {
        let i = (y * width + x) * channels
        switch channels {
        case 1: return Color(gray: pixels[i])
        case 2: return Color(red: pixels[i], green: pixels[i], blue: pixels[i], alpha: pixels[i + 1])
        case 3: return Color(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2])
        default: return Color(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: pixels[i + 3])
        }
    }
}
