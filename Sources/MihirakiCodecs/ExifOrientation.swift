/// Reads the orientation tag (0x0112) from an EXIF block.
package enum ExifOrientation {
    /// The orientation (1–8) in `tiff`, the payload after `Exif\0\0`; `nil`
    /// when absent, out of range or the block is malformed. Never traps.
    package static func parse(_ tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
            return lo | hi << 16
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                // SHORT, count 1: the value sits in the first two bytes of the value field.
                guard u16(entry + 2) == 3, let value = u16(entry + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }

    /// True when the orientation turns the image a quarter (width and height swap).
    package static func swapsAxes(_ orientation: Int) -> Bool { (5...8).contains(orientation) }
}

extension ExifOrientation {
    /// `jpeg` with every Exif APP1 segment before its first scan renamed
    /// APP15, so no reader takes an orientation from it: a JPEG inside a PDF
    /// is drawn as stored (PDF ignores Exif). Everything else, the length of
    /// each segment included, is as it was; a prefix of a file works too.
    package static func hidingExif(_ jpeg: [UInt8]) -> [UInt8] {
        var bytes = jpeg
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return bytes }
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xDA || marker == 0xD9 { break }  // the first scan, or the end
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2 else { break }
            let exif: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
            if marker == 0xE1, at + 4 + 6 <= bytes.count, Array(bytes[at + 4..<at + 10]) == exif { bytes[at + 1] = 0xEF }
            at += 2 + length
        }
        return bytes
    }
}

