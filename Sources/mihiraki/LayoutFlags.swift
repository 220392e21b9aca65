import ArgumentParser
import Mihiraki

/// The flags `render` and `plan` share: everything that decides what is drawn
/// and how it is written (`plan` takes the format too, so its manifest names
/// the same files `render` writes). Each flag's name, help and parsing come
/// from the library's option table (``LayoutOptions/table``); this type only
/// tells swift-argument-parser that the flags exist (it needs a property per
/// flag), and their values are read back by reflection (``given``).
/// `LayoutFlagsTests` requires one flag here per entry of the table, parsed
/// as the table says.
/// Every value is taken as it comes, dash or not, so `--gap -3` is refused
/// by the table as a bad value instead of being a missing one.
struct LayoutFlags: ParsableArguments {
    @Option(name: .customLong("size"), parsing: .unconditional, help: help("size")) var size: String?
    @Option(name: .customLong("layout"), parsing: .unconditional, help: help("layout")) var layout: String?
    @Option(name: .customLong("direction"), parsing: .unconditional, help: help("direction")) var direction: String?
    @Option(name: .customLong("cover"), parsing: .unconditional, help: help("cover")) var cover: String?
    @Option(name: .customLong("page-aspect"), parsing: .unconditional, help: help("page-aspect")) var pageAspect: String?
    @Option(name: .customLong("wide-threshold"), parsing: .unconditional, help: help("wide-threshold")) var wideThreshold: String?
    @Option(name: .customLong("solo"), parsing: .unconditionalSingleValue, help: help("solo")) var solo: [String] = []
    @Option(name: .customLong("blank-before"), parsing: .unconditionalSingleValue, help: help("blank-before")) var blankBefore: [String] = []
    @Option(name: .customLong("gap"), parsing: .unconditional, help: help("gap")) var gap: String?
    @Option(name: .customLong("fit"), parsing: .unconditional, help: help("fit")) var fit: String?
    @Option(name: .customLong("align"), parsing: .unconditional, help: help("align")) var align: String?
    @Option(name: .customLong("background"), parsing: .unconditional, help: help("background")) var background: String?
    @Option(name: .customLong("blank"), parsing: .unconditional, help: help("blank")) var blank: String?
    @Flag(name: .customLong("strip"), help: help("strip")) var strip = false
    @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: help("max-pixels")) var maxPixels: String?
    @Option(name: .customLong("color-manage"), parsing: .unconditional, help: help("color-manage")) var colorManage: String?
    @Option(name: .customLong("format"), parsing: .unconditional, help: help("format")) var format: String?
    @Option(name: .customLong("quality"), parsing: .unconditional, help: help("quality")) var quality: String?
    @Flag(name: .customLong("lossless"), help: help("lossless")) var lossless = false
    @Option(name: .customLong("compression"), parsing: .unconditional, help: help("compression")) var compression: String?
    @Option(name: .customLong("back-cover"), parsing: .unconditional, help: help("back-cover")) var backCover: String?
    @Option(name: .customLong("pairing"), parsing: .unconditional, help: help("pairing")) var pairing: String?
    @Option(name: .customLong("pairing-threshold"), parsing: .unconditional, help: help("pairing-threshold")) var pairingThreshold: String?
    @Option(name: .customLong("split-wide"), parsing: .unconditional, help: help("split-wide")) var splitWide: String?
    @Flag(name: .customLong("crop-borders"), help: help("crop-borders")) var cropBorders = false
    @Option(name: .customLong("crop-limit"), parsing: .unconditional, help: help("crop-limit")) var cropLimit: String?

    /// The flags as the table's names and values, in the table's order. Read
    /// from the properties above by reflection (`_pageAspect` is
    /// `page-aspect`), so no second list of the flags is kept by hand.
    var given: [(name: String, value: String)] {
        var values: [String: [String]] = [:]
        for child in Mirror(reflecting: self).children {
            guard let label = child.label, label.hasPrefix("_") else { continue }
            let name = label.dropFirst().reduce(into: "") { name, character in
                name += character.isUppercase ? "-" + character.lowercased() : String(character)
            }
            switch child.value {
            case let option as Option<String?>: values[name] = option.wrappedValue.map { [$0] } ?? []
            case let option as Option<[String]>: values[name] = option.wrappedValue
            case let flag as Flag<Bool>: values[name] = flag.wrappedValue ? [""] : []
            default: continue
            }
        }
        return LayoutOptions.table.flatMap { option in (values[option.name] ?? []).map { (option.name, $0) } }
    }

    /// The library's options, or a usage error naming the bad value.
    func layoutOptions() throws -> LayoutOptions {
        var options = LayoutOptions()
        try options.set(given)
        try options.validate()
        return options
    }

    /// The command line with every flag whose value is optional
    /// (``LayoutOption/optionalValue``) given one: `--split-wide` followed by
    /// anything but one of its words becomes `--split-wide=auto`.
    static func withOptionalValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                result += arguments[(index - 1)...]
                break
            }
            // `--jobs -5`: a negative number is never an option, so it is
            // the option's value (the parser would call the value missing).
            if argument.hasPrefix("--"), !argument.contains("="), index < arguments.count,
               Self.isNegativeNumber(arguments[index]) {
                result.append(argument + "=" + arguments[index])
                index += 1
                continue
            }
            // `render --check G --update [changed]`: alone, every golden is rewritten.
            if argument == "--update" {
                let next = index < arguments.count ? arguments[index].lowercased() : ""
                if next == "changed" || next == "all" {
                    result.append("--update=" + next)
                    index += 1
                } else {
                    result.append("--update=all")
                }
                continue
            }
            guard argument.hasPrefix("--"), let option = LayoutOptions.option(named: String(argument.dropFirst(2))),
                  let optional = option.optionalValue else {
                result.append(argument)
                continue
            }
            if index < arguments.count, optional.takes.contains(arguments[index].lowercased()) {
                result += [argument, arguments[index]]
                index += 1
            } else {
                result.append(argument + "=" + optional.alone)
            }
        }
        return result
    }

    /// `-5`, `-0.5`, `-.5`: what a user means as a number below zero.
    static func isNegativeNumber(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument.count > 1 else { return false }
        let rest = argument.dropFirst()
        return rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && rest.contains(where: \.isNumber)
    }

    /// The table's help for a flag, with its placeholder.
    static func help(_ name: String) -> ArgumentHelp {
        guard let option = LayoutOptions.option(named: name) else { fatalError("--\(name) is not in the option table") }
        return ArgumentHelp(option.help, valueName: option.valueName.isEmpty ? nil : option.valueName)
    }
}
