import MihirakiCore

/// Any bytes as ComicInfo.xml.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? ComicInfo.parse(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
