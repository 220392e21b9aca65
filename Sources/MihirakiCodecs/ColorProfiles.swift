import CMihirakiCodecs
import Foundation
import Synchronization

/// Conversions of embedded ICC profiles to sRGB (lcms2, relative
/// colorimetric), made once per profile and channel layout and shared by
/// every page and worker: a library of scans from one publisher carries the
/// same profile on every page.
enum ColorProfiles {
    private struct Key: Hashable {
        var crc: UInt32
        var size: Int
        /// Samples per pixel, or CMYK (plain or Adobe-inverted) to RGB.
        var layout: Layout
    }

    private enum Layout: Hashable {
        case samples(Int)
        case cmyk(inverted: Bool)
    }

    /// A transform pointer, safe to share: made without lcms2's pixel cache.
    private final class Transform: @unchecked Sendable {
        let pointer: OpaquePointer?
        init(_ pointer: OpaquePointer?) { self.pointer = pointer }
    }

    private static let cache = Mutex<[Key: Transform]>([:])

    /// The conversion of `profile` for pixels of `channels` samples, or `nil`
    /// when none is needed or possible (an sRGB profile, a profile that does
    /// not fit the pixels or cannot be read: the stored values are then used).
    static func transform(for profile: [UInt8], channels: Int) -> OpaquePointer? {
        cached(profile, .samples(channels)) { raw, error in
            mh_color_transform_new(raw.baseAddress, raw.count, Int32(channels), &error)
        }
    }

    /// The conversion of a CMYK profile's samples (Adobe-`inverted` or not)
    /// to sRGB, or `nil` when the profile is not a usable CMYK profile.
    static func cmykTransform(for profile: [UInt8], inverted: Bool) -> OpaquePointer? {
        cached(profile, .cmyk(inverted: inverted)) { raw, error in
            mh_color_transform_new_cmyk(raw.baseAddress, raw.count, inverted ? 1 : 0, &error)
        }
    }

    private static func cached(_ profile: [UInt8], _ layout: Layout,
                               make: (UnsafeRawBufferPointer, inout mh_error) -> OpaquePointer?) -> OpaquePointer? {
        let key = Key(crc: crc32(profile), size: profile.count, layout: layout)
        return cache.withLock { cache in
            if let known = cache[key] { return known }
            var error = mh_error()
            let made = Transform(profile.withUnsafeBytes { make($0, &error) })
            cache[key] = made
            return made
        }.pointer
    }
}

extension PageDecoder.OpenedPage {
    /// The page with its rows converted from its embedded profile to sRGB, or
    /// itself when it has no profile that needs converting.
    func colorManaged() -> PageDecoder.OpenedPage {
        if let managed { return managed() }
        guard let profile, let transform = ColorProfiles.transform(for: profile, channels: channels) else { return self }
        let width = header.storedWidth, read = readRow
        return PageDecoder.OpenedPage(header: header, channels: channels, streams: streams) { row in
            try read(row)
            mh_color_transform_apply(transform, row, width)
        }
    }
}
