/// A straight (not premultiplied) 8-bit sRGB colour with alpha.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0–255, not premultiplied.
    public var red: UInt8
    /// Green, 0–255, not premultiplied.
    public var green: UInt8
    /// Blue, 0–255, not premultiplied.
    public var blue: UInt8
    /// Opacity, 0 (transparent) – 255 (opaque).
    public var alpha: UInt8

    /// A colour from its samples.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A neutral colour: red, green and blue all `gray`.
    public init(gray: UInt8, alpha: UInt8 = 255) {
        self.init(red: gray, green: gray, blue: gray, alpha: alpha)
    }

    /// Opaque black, the default background.
    public static let black = Color(gray: 0)
    /// Opaque white, the default colour of blank pages (paper).
    public static let white = Color(gray: 255)
    /// Fully transparent; a canvas with it is written as RGBA.
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    package var isOpaque: Bool { alpha == 255 }
    package var isGray: Bool { red == green && green == blue }

    /// `#RRGGBB` or `#RRGGBBAA`.
    public var description: String {
        let hex = [red, green, blue] + (isOpaque ? [] : [alpha])
        return "#" + hex.map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }

    /// Parses `#RRGGBB`, `#RRGGBBAA`, `#RGB`, `#RGBA`, `transparent` or a CSS
    /// colour name (case-insensitive). Returns `nil` for anything else.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if let named = cssNamedColors[lowered] {
            self = named
            return
        }
        guard lowered.hasPrefix("#") else { return nil }
        var nibbles: [UInt8] = []
        for character in lowered.dropFirst() {
            guard let value = character.hexDigitValue else { return nil }
            nibbles.append(UInt8(value))
        }
        switch nibbles.count {
        case 3, 4:
            let bytes = nibbles.map { $0 << 4 | $0 }
            self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
        case 6, 8:
            let bytes = stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
            self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
        default:
            return nil
        }
    }

    /// This colour with premultiplied alpha, rounded: what the canvas stores.
    package var premultiplied: Color {
        func times(_ c: UInt8) -> UInt8 { UInt8((Int(c) * Int(alpha) + 127) / 255) }
        return Color(red: times(red), green: times(green), blue: times(blue), alpha: alpha)
    }

    /// `self` drawn over `below` (source-over), all straight: the colour a
    /// flat area holds where a blank of this colour lies over a background
    /// of `below`. Computed in `Double` and rounded to nearest, ties to
    /// even, so it is the value source-over gives in real numbers; a fully
    /// opaque or fully transparent side gives the other colour exactly (a
    /// transparent blank over a transparent background: the background).
    package func over(_ below: Color) -> Color {
        if alpha == 0 { return below }
        if alpha == 255 || below.alpha == 0 { return self }
        let ta = Double(alpha) / 255, ba = Double(below.alpha) / 255
        let oa = ta + ba * (1 - ta)
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8(min(255, ((Double(top) * ta + Double(bottom) * ba * (1 - ta)) / oa).rounded(.toNearestOrEven)))
        }
        return Color(red: mix(red, below.red), green: mix(green, below.green), blue: mix(blue, below.blue),
                     alpha: UInt8(min(255, (oa * 255).rounded(.toNearestOrEven))))
    }

    /// `self` drawn over `below` (source-over), both straight; result premultiplied.
    package func premultipliedOver(_ below: Color) -> Color {
        let a = Int(alpha), b = Int(below.alpha)
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Int(top) * a * 255 + Int(bottom) * b * (255 - a) + 32512) / 65025)
        }
        return Color(red: mix(red, below.red), green: mix(green, below.green), blue: mix(blue, below.blue),
                     alpha: UInt8((a * 255 + b * (255 - a) + 127) / 255))
    }
}
