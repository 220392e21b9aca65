import CMihirakiCodecs
import MihirakiCodecs
import MihirakiRaster

/// Any bytes as a page, through every way Mihiraki decodes one: header, whole
/// decode (PNG fast path, libpng, libjpeg) and row streaming. scripts/fuzz
/// runs it twice, seeded with PNGs and with JPEGs. Errors are fine; crashes,
/// hangs and memory errors are what the fuzzer looks for. A small pixel limit
/// keeps each run fast.
///
/// Then the `--compression fast` PNG writer round-trips pixels: the decoded
/// page when there is one, and the input's own bytes read as samples. Its
/// SIMD and scalar paths must write the same bytes, and libpng must read back
/// exactly what was written; anything else stops the fuzzer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? PageDecoder.header(of: bytes)
    let page = try? PageDecoder.decode(bytes, maxPixels: 1 << 22)
    _ = try? PageDecoder.withRows(bytes, maxPixels: 1 << 22) { width, _, channels, next in
        var row = [UInt8](repeating: 0, count: width * channels + 16)
        try row.withUnsafeMutableBufferPointer { try next($0.baseAddress!) }
    }
    if let page, page.width * page.height <= 1 << 18 { roundTrip(page) }
    // The input as samples: the first byte picks the channels and the width.
    if size > 2 {
        let channels = Int(bytes[0] % 4) + 1, width = Int(bytes[1] % 96) + 1
        let samples = Array(bytes.dropFirst(2).prefix(1 << 16))
        let height = samples.count / (width * channels)
        if height > 0 {
            roundTrip(PixelBuffer(width: width, height: height, channels: channels,
                                  pixels: Array(samples.prefix(width * height * channels))))
        }
    }
    return 0
}

func roundTrip(_ image: PixelBuffer) {
    func encode(reference: Int32) -> [UInt8] {
        var buffer = mh_buffer(), error = mh_error()
        let status = image.pixels.withUnsafeBytes {
            mh_png_encode_fast($0.baseAddress, UInt32(image.width), UInt32(image.height), image.rowBytes,
                               Int32(image.channels), reference, &buffer, &error)
        }
        precondition(status == MH_OK, "the fast PNG writer failed on a valid image")
        defer { mh_buffer_free(&buffer) }
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }
    let png = encode(reference: 0)
    precondition(png == encode(reference: 1), "SIMD and scalar PNG bytes differ")
    precondition(readWithLibpng(png) == image.pixels, "libpng read back other samples")
}

/// The samples libpng itself reads from `png`, or nil if it refuses it.
func readWithLibpng(_ png: [UInt8]) -> [UInt8]? {
    png.withUnsafeBytes { file -> [UInt8]? in
        var info = mh_png_info(), error = mh_error()
        guard let reader = mh_png_open(file.baseAddress, file.count, &info, &error) else { return nil }
        defer { mh_png_close(reader) }
        let stride = Int(info.width) * Int(info.channels)
        var pixels = [UInt8](repeating: 0, count: stride * Int(info.height))
        let status = pixels.withUnsafeMutableBytes { mh_png_read(reader, $0.baseAddress, stride, &error) }
        return status == MH_OK ? pixels : nil
    }
}
