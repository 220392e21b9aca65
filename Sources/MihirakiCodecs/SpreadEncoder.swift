import CMihirakiCodecs
import MihirakiRaster

/// The file format spreads are written in.
public enum SpreadFormat: String, CaseIterable, Sendable {
    /// Lossless, exact; the default.
    case png
    /// Baseline JPEG, 4:2:0 (gray spreads: one component); no alpha.
    case jpeg
    /// Lossy or lossless WebP.
    case webp
    /// Lossy or lossless AVIF.
    case avif

    /// The extension of the files: `png`, `jpg`, `webp`, `avif`.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// Whether the format can hold a see-through pixel.
    package var hasAlpha: Bool { self != .jpeg }

    /// The longest side the format can hold.
    package var maximumSide: Int {
        switch self {
        case .png: return 65535
        case .jpeg: return 65500
        case .webp: return 16383
        case .avif: return 65536
        }
    }

    /// Why this build cannot write the format, or nil when it can.
    package var unavailableReason: String? {
        self == .avif && mh_avif_can_encode() == 0 ? "this build's libavif has no AV1 encoder" : nil
    }

    /// The format of a file name's extension (`jpg` and `jpeg` are both JPEG).
    package init?(fileExtension: String) {
        let lowered = fileExtension.lowercased()
        self.init(rawValue: lowered == "jpg" ? "jpeg" : lowered)
    }
}

/// How a spread becomes bytes: the format and its settings.
public struct SpreadEncoding: Sendable, Hashable {
    /// The file format.
    public var format: SpreadFormat = .png
    /// Quality of the lossy formats, 1–100; with `lossless` WebP, the effort.
    public var quality = 85
    /// WebP and AVIF without loss.
    public var lossless = false
    /// The PNG writer's speed against size.
    public var compression: PNGCompression = .default

    /// PNG, quality 85, default compression.
    public init() {}
}

/// One format's writer: the same call for every format, so adding a format
/// is one file and one line in ``SpreadEncoder``.
protocol SpreadFormatEncoder {
    /// Encodes `image` (1, 3 or 4 channels; alpha straight, not premultiplied).
    static func encode(_ image: PixelBuffer, with encoding: SpreadEncoding) throws -> [UInt8]
}

/// Writes spreads in any ``SpreadFormat``. The same pixels and settings
/// always give the same bytes: every encoder runs on one thread with fixed
/// settings and writes no time stamp.
public enum SpreadEncoder {
    /// Encodes `image` as `encoding` says. A JPEG cannot hold alpha: callers
    /// flatten first (the renderer does, onto the blank colour).
    /// - Throws: `CodecError` when the image does not fit the format or memory runs out.
    public static func encode(_ image: PixelBuffer, with encoding: SpreadEncoding) throws -> [UInt8] {
        let encoder: any SpreadFormatEncoder.Type
        switch encoding.format {
        case .png: encoder = PNGEncoder.self
        case .jpeg: encoder = JPEGSpreadEncoder.self
        case .webp: encoder = WebPSpreadEncoder.self
        case .avif: encoder = AVIFSpreadEncoder.self
        }
        return try encoder.encode(image, with: encoding)
    }

    /// Runs one C encoder and takes its bytes.
    static func run(_ body: (UnsafeRawPointer?, inout mh_buffer, inout mh_error) -> Int32, image: PixelBuffer) throws -> [UInt8] {
        var buffer = mh_buffer()
        var error = mh_error()
        let status = image.pixels.withUnsafeBytes { body($0.baseAddress, &buffer, &error) }
        guard status == MH_OK else { throw CodecError(error) }
        defer { mh_buffer_free(&buffer) }
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }
}
