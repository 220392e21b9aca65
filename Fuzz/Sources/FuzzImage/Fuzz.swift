import MihirakiCodecs

/// Any bytes as a page, through every way Mihiraki decodes one: header, whole
/// decode (PNG fast path, libpng, libjpeg) and row streaming. scripts/fuzz
/// runs it twice, seeded with PNGs and with JPEGs. Errors are fine; crashes,
/// hangs and memory errors are what the fuzzer looks for. A small pixel limit
/// keeps each run fast.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? PageDecoder.header(of: bytes)
    _ = try? PageDecoder.decode(bytes, maxPixels: 1 << 22)
    _ = try? PageDecoder.withRows(bytes, maxPixels: 1 << 22) { width, _, channels, next in
        var row = [UInt8](repeating: 0, count: width * channels + 16)
        try row.withUnsafeMutableBufferPointer { try next($0.baseAddress!) }
    }
    return 0
}
