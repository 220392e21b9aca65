/// What a file is, judged from its first bytes, never from its name.
package enum ImageFormat: String, Hashable, Sendable {
    case png, jpeg
    case gif, webp, avif, jpegXL = "jpeg-xl"
    /// Formats people keep comics in that Mihiraki does not decode; named in errors.
    case bmp, tiff, heic

    package var isDecodable: Bool { PageDecoder.decoder(for: self) != nil }

    /// The format's name as people write it: `PNG`, `WebP`, `JPEG XL`.
    package var name: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .gif: return "GIF"
        case .webp: return "WebP"
        case .bmp: return "BMP"
        case .tiff: return "TIFF"
        case .avif: return "AVIF"
        case .heic: return "HEIC"
        case .jpegXL: return "JPEG XL"
        }
    }

    /// Recognises the format from a file's leading bytes, or `nil`.
    package static func sniff<C: Collection<UInt8>>(_ bytes: C) -> ImageFormat? {
        let head = Array(bytes.prefix(16))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool { head.hasMagic(magic, at: offset) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("BM".utf8)) { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("ftyp".utf8), at: 4) {
            if starts(Array("avif".utf8), at: 8) || starts(Array("avis".utf8), at: 8) { return .avif }
            if starts(Array("heic".utf8), at: 8) || starts(Array("heix".utf8), at: 8) || starts(Array("mif1".utf8), at: 8) {
                return .heic
            }
        }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return .jpegXL }
        return nil
    }
}

extension Array where Element == UInt8 {
    /// Whether these leading bytes of a file hold `magic` at `offset`.
    package func hasMagic(_ magic: [UInt8], at offset: Int = 0) -> Bool {
        count >= offset + magic.count && self[offset..<offset + magic.count].elementsEqual(magic)
    }
}
