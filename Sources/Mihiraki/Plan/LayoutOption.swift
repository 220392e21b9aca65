import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// One layout or encoding option, declared once in ``LayoutOptions/table``:
/// its flag name (which is also its query-parameter name), how its value is
/// parsed, its help, and what it adds to the fingerprint. The command line's
/// flags, the server's query parameters, the fingerprint and the ETag all
/// read the table, so an option cannot reach one of them and miss another.
package struct LayoutOption: Sendable {
    /// How the option is written.
    package enum Kind: Sendable {
        /// `--size x300`, `size=x300`.
        case value
        /// `--solo 3 --solo 5`, `solo=3,5`: each occurrence adds to the set.
        case list
        /// `--strip`, `strip=1`.
        case flag
    }

    /// A value the option cannot take; the caller names the option its own
    /// way (`--size` on the command line, `size` in a query).
    package struct BadValue: Error {
        package var value: String
        /// What the option takes, or why the value is refused.
        package var expected: String
    }

    /// The flag's long name without dashes, and the query parameter's name.
    package let name: String
    package let kind: Kind
    /// The placeholder in help: `WxH`, `P`.
    package let valueName: String
    /// One line of help, naming the default.
    package let help: String
    /// A valid value that is not the default: the table's test sets each
    /// option to it and requires a different fingerprint and ETag.
    package let example: String
    /// Whether a request may set it (the server decides `max-pixels` itself,
    /// and a spread's format comes from its file extension).
    package let isQueryParameter: Bool
    /// Parses `value` into `options`.
    let apply: @Sendable (inout LayoutOptions, String) throws(BadValue) -> Void
    /// `name=value` as the fingerprint records it.
    let record: @Sendable (LayoutOptions) -> String
    /// False for options added after 0.3.0: left out of the record at their default.
    private(set) var isRecordedAtDefault = true
    /// A flag whose value may be left out on the command line (`--split-wide`
    /// alone means `--split-wide auto`): the value it means alone, and the
    /// words it takes as its value. A query always names the value.
    package private(set) var optionalValue: (alone: String, takes: [String])?

    /// This option with its value optional on the command line: alone it means `alone`.
    func valueOptional(alone: String) -> LayoutOption {
        var option = self
        option.optionalValue = (alone, valueName.split(separator: "|").map(String.init))
        return option
    }

    /// This option, recorded only when it is not at its default (see ``LayoutOptions/recorded``).
    var since: LayoutOption {
        var option = self
        option.isRecordedAtDefault = false
        return option
    }

    /// The message for a bad value, with the option named as `prefix + name`.
    package func message(_ bad: BadValue) -> String {
        "bad value for --\(name): \(bad.value.prefix(80)) (\(bad.expected))"
    }
}

extension LayoutOptions {
    /// Every option that decides what is drawn or how it is written, in the
    /// order the fingerprint records them. A new option is one entry here
    /// (and its field); the tests walk the table.
    package static let table: [LayoutOption] = [
        .parsed("size", "WxH", "Canvas size of every image; xH or Wx derives the other side from the spread's natural aspect (thumbnails). Default 2048x1536.",
                example: "x300", expected: "WxH such as 2048x1536, xH or Wx", \.size, CanvasSize.init(parsing:)),
        .choice("layout", "spread (two pages per image) or single (one page per image).", example: .single, \.layout),
        .choice("direction", "Reading direction: ltr, rtl, or auto (left-to-right unless the book says otherwise).",
                example: .rtl, \.direction, none: "auto"),
        .choice("cover", "alone (default): page 1 is a lone recto, [x|1] [2|3]; paired: [1|2] [3|4].",
                example: .paired, \.cover, none: "auto"),
        .parsed("page-aspect", "AxB", "Aspect of every page slot. Default 771x1200.", example: "1x1.414",
                expected: "AxB with positive numbers, such as 771x1200", \.pageAspect, PageAspect.init(parsing:)),
        .parsed("wide-threshold", "R", "A page is wide (shown alone across the spread) when width/height is above this. Default 1.",
                example: "1.5", expected: "a positive number", \.wideThreshold, positive),
        .pages("solo", "Show page P alone with a blank partner (repeatable).", \.soloPages),
        .pages("blank-before", "Insert a blank page before page P (repeatable).", \.blankBefore),
        .parsed("gap", "N", "Pixels between the two page slots. Default 0.", example: "12",
                expected: "a number of pixels, at least 0", \.gap, { Double($0).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } }),
        .choice("fit", "contain (aspect-fit) or stretch (fill the slot).", example: .stretch, \.fit),
        .choice("align", "spine (pages meet at the gutter) or center (centred in their slots).", example: .center, \.align),
        .parsed("background", "COLOR", "Canvas colour: #RRGGBB, #RRGGBBAA, a CSS name or transparent. Default #000000.",
                example: "transparent", expected: "#RRGGBB, #RRGGBBAA, a CSS colour name or transparent",
                \.background, Color.init(parsing:)),
        .parsed("blank", "COLOR", "Colour of blank dummy pages. Default #FFFFFF.", example: "#808080",
                expected: "#RRGGBB, #RRGGBBAA, a CSS colour name or transparent", \.blank, Color.init(parsing:)),
        .flag("strip", "Write a right-to-left book in visual order, last spread first.", \.strip),
        .parsed("max-pixels", "N", "Refuse pages whose header claims more pixels than this. Default \(PageDecoder.defaultMaxPixels).",
                example: "1000000", expected: "a positive number of pixels", \.maxPixels,
                { Int($0).flatMap { $0 >= 1 ? $0 : nil } }, isQueryParameter: false),
        LayoutOption(name: "color-manage", kind: .value, valueName: "auto|off",
                     help: "auto (default): convert pages with an embedded ICC profile to sRGB; off: take the stored values.",
                     example: "off", isQueryParameter: true,
                     apply: { options, value throws(LayoutOption.BadValue) in
                         switch value.lowercased() {
                         case "auto": options.colorManage = true
                         case "off": options.colorManage = false
                         default: throw LayoutOption.BadValue(value: value, expected: "auto or off")
                         }
                     },
                     record: { "color-manage=\($0.colorManage)" }),
        .parsed("format", "FORMAT", "File format of the spreads and the contact sheet: \(listed(SpreadFormat.allCases.map(\.rawValue), "or")). Default png.",
                example: "webp", expected: listed(SpreadFormat.allCases.map(\.rawValue), "or"), \.encoding.format,
                SpreadFormat.init(rawValue:), isQueryParameter: false),
        .parsed("quality", "Q", "Quality of \(SpreadFormat.names(where: \.takesQuality, "and")), 1-100 (with --lossless WebP: the effort). Default 85.",
                example: "60", expected: expected(LayoutOptions.qualities), \.encoding.quality,
                { Int($0).flatMap { LayoutOptions.qualities.contains($0) ? $0 : nil } }),
        .flag("lossless", "Write \(SpreadFormat.names(where: \.hasLosslessOption)) without loss.", \.encoding.lossless),
        .choice("compression", "PNG compression: fast, default or small.", example: .small, \.encoding.compression),
        .choice("back-cover", "paired (default): the last page pairs like any other; alone: it stands alone on the left, [N|x], as a back cover.",
                example: .alone, \.backCover).since,
        .choice("pairing", "static (default): pages pair by position; auto: also keep together two pages whose facing edges continue one artwork, found from their pixels.",
                example: .auto, \.pairing).since,
        .parsed("pairing-threshold", "T", "With --pairing auto: the confidence, 0 to 1, two pages need to be kept together as one artwork; lower finds more and risks false ones. Default \(Double(SplitDetector.defaultThreshold) / 1000).",
                example: "0.5", expected: expected(LayoutOptions.pairingThresholds), \.pairingThreshold,
                { Double($0).flatMap { LayoutOptions.pairingThresholds.contains($0) ? $0 : nil } }).since,
        .choice("split-wide", "Cut every wide page into its two halves at the gutter: auto (the default when the flag is alone) finds the fold from the pixels; center cuts at the middle; off leaves wide pages whole (the default).",
                example: .center, \.splitWide, none: "off").since.valueOptional(alone: "auto"),
        .flag("crop-borders", "Cut scanner borders (white, black or grey frames) off every page before it is fitted; the two pages of a spread are drawn at one scale.",
              \.cropBorders).since,
        .parsed("crop-limit", "P", "With --crop-borders: the most taken from any side, in percent of the page's width or height. Default 10.",
                example: "5", expected: expected(LayoutOptions.cropLimits, of: "percent"), \.cropLimit,
                { Int($0).flatMap { LayoutOptions.cropLimits.contains($0) ? $0 : nil } }).since,
    ]

    /// What a ranged option takes, in words: `a whole number from 1 to 100`.
    static func expected(_ range: ClosedRange<Int>, of unit: String? = nil) -> String {
        "a whole number \(unit.map { "of \($0) " } ?? "")from \(range.lowerBound) to \(range.upperBound)"
    }

    /// `a number from 0 to 1`.
    static func expected(_ range: ClosedRange<Double>) -> String {
        func text(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
        return "a number from \(text(range.lowerBound)) to \(text(range.upperBound))"
    }

    /// The names of every option, in the table's order.
    package static var tableNames: [String] { table.map(\.name) }

    /// The table's entry for a flag or parameter name.
    package static func option(named name: String) -> LayoutOption? { table.first { $0.name == name } }

    /// Every option as the fingerprint records it, in the table's order. An
    /// option added after the fingerprint's first release is recorded only
    /// when it is not at its default, so adding one leaves every existing
    /// fingerprint (and `--incremental`'s skips) as they were.
    package var recorded: String {
        let defaults = LayoutOptions()
        return Self.table.compactMap { option in
            let record = option.record(self)
            return option.isRecordedAtDefault || record != option.record(defaults) ? record : nil
        }.joined(separator: " ")
    }

    /// Sets options from `name`/`value` pairs, each parsed by its table entry
    /// (a list option adds every comma-separated page; a flag takes `""`,
    /// `1`, `true`, `yes`, `0`, `false` or `no`). Checking the result as a
    /// whole is ``validate()``'s job.
    /// - Throws: ``MihirakiError`` with code `.usage` for an unknown name or a
    ///   bad value, naming the option as a flag (``OptionSpelling`` respells it).
    package mutating func set(_ pairs: [(name: String, value: String)]) throws {
        for (name, value) in pairs {
            guard let option = Self.option(named: name) else {
                throw MihirakiError(.usage, "unknown option --\(name.prefix(80))")
            }
            do throws(LayoutOption.BadValue) {
                guard value.utf8.count <= 200 else { throw LayoutOption.BadValue(value: value, expected: "too long") }
                try option.apply(&self, value)
            } catch {
                throw MihirakiError(.usage, option.message(error))
            }
        }
    }
}

private func positive(_ text: String) -> Double? {
    Double(text).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
}

extension LayoutOption {
    /// An option whose value a parser turns into the field's type.
    static func parsed<T>(_ name: String, _ valueName: String, _ help: String, example: String, expected: String,
                          _ field: WritableKeyPath<LayoutOptions, T> & Sendable,
                          _ parse: @escaping @Sendable (String) -> T?,
                          isQueryParameter: Bool = true) -> LayoutOption {
        LayoutOption(name: name, kind: .value, valueName: valueName, help: help, example: example,
                     isQueryParameter: isQueryParameter,
                     apply: { options, value throws(BadValue) in
                         guard let parsed = parse(value) else { throw BadValue(value: value, expected: expected) }
                         options[keyPath: field] = parsed
                     },
                     record: { "\(name)=\($0[keyPath: field])" })
    }

    /// An option naming one case of an enumeration, in any letter case.
    static func choice<T: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ help: String, example: T, _ field: WritableKeyPath<LayoutOptions, T> & Sendable
    ) -> LayoutOption where T.RawValue == String {
        let values = T.allCases.map(\.rawValue)
        return LayoutOption(name: name, kind: .value, valueName: values.joined(separator: "|"), help: help,
                            example: example.rawValue, isQueryParameter: true,
                            apply: { options, value throws(BadValue) in
                                guard let parsed = T(rawValue: value.lowercased()) else {
                                    throw BadValue(value: value, expected: listed(values, "or"))
                                }
                                options[keyPath: field] = parsed
                            },
                            record: { "\(name)=\($0[keyPath: field].rawValue)" })
    }

    /// An optional enumeration whose `nil` is written `none` (`auto`: the book decides).
    static func choice<T: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ help: String, example: T, _ field: WritableKeyPath<LayoutOptions, T?> & Sendable, none: String
    ) -> LayoutOption where T.RawValue == String {
        let values = T.allCases.map(\.rawValue) + [none]
        return LayoutOption(name: name, kind: .value, valueName: values.joined(separator: "|"), help: help,
                            example: example.rawValue, isQueryParameter: true,
                            apply: { options, value throws(BadValue) in
                                let lowered = value.lowercased()
                                if lowered == none {
                                    options[keyPath: field] = nil
                                } else if let parsed = T(rawValue: lowered) {
                                    options[keyPath: field] = parsed
                                } else {
                                    throw BadValue(value: value, expected: listed(values, "or"))
                                }
                            },
                            record: { "\(name)=\($0[keyPath: field]?.rawValue ?? none)" })
    }

    /// A switch: present means on.
    static func flag(_ name: String, _ help: String, _ field: WritableKeyPath<LayoutOptions, Bool> & Sendable) -> LayoutOption {
        LayoutOption(name: name, kind: .flag, valueName: "", help: help, example: "true", isQueryParameter: true,
                     apply: { options, value throws(BadValue) in
                         switch value.lowercased() {
                         case "", "1", "true", "yes": options[keyPath: field] = true
                         case "0", "false", "no": options[keyPath: field] = false
                         default: throw BadValue(value: value, expected: "1 or 0, true or false, yes or no")
                         }
                     },
                     record: { "\(name)=\($0[keyPath: field])" })
    }

    /// Page numbers, comma-separated or repeated; each adds to the set.
    static func pages(_ name: String, _ help: String, _ field: WritableKeyPath<LayoutOptions, Set<Int>> & Sendable) -> LayoutOption {
        LayoutOption(name: name, kind: .list, valueName: "P", help: help, example: "3", isQueryParameter: true,
                     apply: { options, value throws(BadValue) in
                         for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                             guard let page = Int(part), page >= 1, page <= 1_000_000 else {
                                 throw BadValue(value: value, expected: "page numbers from 1 to 1000000")
                             }
                             options[keyPath: field].insert(page)
                         }
                     },
                     record: { "\(name)=\($0[keyPath: field].sorted())" })
    }
}
