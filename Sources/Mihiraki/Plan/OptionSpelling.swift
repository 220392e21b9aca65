/// How a front end writes an option's name: `--size` on the command line,
/// `size` in a query string (the name before `=`), `page_aspect` as a
/// keyword argument. Errors about options are written once, in the command
/// line's spelling, and each front end respells them in its own
/// (``respell(_:)``), so the server answers `size must be between …` and
/// never names a flag it does not have.
package enum OptionSpelling: Sendable {
    /// `--size`: the command line.
    case flag
    /// `size`: a query parameter of `mihiraki serve`, as it stands before `=`.
    case query
    /// `size`, with `_` for `-` (`page_aspect`): a keyword argument.
    case keyword

    /// The option named `name` in the option table, spelled this way.
    package func spell(_ name: String) -> String {
        switch self {
        case .flag: "--" + name
        case .query: name
        case .keyword: name.replacingOccurrences(of: "-", with: "_")
        }
    }

    /// Whether this front end has `option`: a query has its parameters and
    /// `format`, not `--max-pixels`, which only the server's own command line sets.
    private func takes(_ option: LayoutOption) -> Bool {
        self != .query || option.isQueryParameter || option.name == "format"
    }

    /// `message` with every option of the table it names as a flag
    /// (`--size`, followed by anything but a name character) and this front
    /// end has, spelled this way.
    package func respell(_ message: String) -> String {
        guard self != .flag else { return message }
        var text = Substring(message)
        var out = ""
        while let range = text.range(of: "--") {
            out += text[..<range.lowerBound]
            let rest = text[range.upperBound...]
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let option = LayoutOptions.option(named: String(name)), takes(option) {
                out += spell(String(name))
                text = rest.dropFirst(name.count)
            } else {
                out += "--"
                text = rest
            }
        }
        return out + text
    }
}

extension MihirakiError {
    /// This error with the options it names spelled `spelling`'s way.
    package func spelled(_ spelling: OptionSpelling) -> MihirakiError {
        var error = self
        error.message = spelling.respell(message)
        return error
    }
}
