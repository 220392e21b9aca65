import Mihiraki

/// Any bytes through the JPEG paths (seeded with JPEGs: baseline,
/// progressive, gray, CMYK, EXIF): header, whole decode and row streaming. Errors are fine; crashes, hangs and
/// memory errors are what the fuzzer looks for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    decodeEveryWay(bytes)
    return 0
}

/// Shared by the image harnesses: a small pixel limit keeps each run fast.
func decodeEveryWay(_ bytes: [UInt8]) {
    _ = try? PageDecoder.header(of: bytes)
    _ = try? PageDecoder.decode(bytes, maxPixels: 1 << 22)
    _ = try? PageDecoder.withRows(bytes, maxPixels: 1 << 22) { width, _, channels, next in
        var row = [UInt8](repeating: 0, count: width * channels + 16)
        try row.withUnsafeMutableBufferPointer { try next($0.baseAddress!) }
    }
}
