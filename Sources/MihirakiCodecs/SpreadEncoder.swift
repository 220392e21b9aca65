import CMihirakiCodecs
import MihirakiRaster

/// Writes spreads in any ``SpreadFormat``. The same pixels and settings
/// always give the same bytes: every encoder runs on one thread with fixed
/// settings and writes no time stamp.
public enum SpreadEncoder {
    /// Encodes `image` as `encoding` says. A JPEG cannot hold alpha: callers
    /// flatten first (the renderer does, onto the blank colour).
    /// - Throws: `CodecError` when the image does not fit the format or memory runs out.
    public static func encode(_ image: PixelBuffer, with encoding: SpreadEncoding) throws -> [UInt8] {
        try encoding.format.encoder.encode(image, with: encoding)
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
