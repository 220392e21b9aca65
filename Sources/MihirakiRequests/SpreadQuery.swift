import Mihiraki

/// Query parameters → ``LayoutOptions``. The names are the command line's
/// flag names (`size`, `layout`, `direction`, `cover`, `page-aspect`,
/// `wide-threshold`, `solo`, `blank-before`, `gap`, `fit`, `align`,
/// `background`, `blank`, `strip`, `color-manage`, `quality`, `lossless`,
/// `compression`; `format` where the URL has no extension). An unknown name
/// or a bad value is a 400 naming it; so is a canvas over the pixel limit.
public enum SpreadQuery {
    /// The options a request asks for, checked as the command line checks them.
    /// - Parameters:
    ///   - parameters: name and value pairs, values percent-decoded once.
    ///   - format: the format the URL's extension names, or `nil` (then `format=` may).
    ///   - maxPixels: the server's page and canvas limit.
    /// - Throws: ``ServerError`` with status 400.
    public static func options(_ parameters: [(name: String, value: String)], format: SpreadFormat?,
                               maxPixels: Int) throws -> LayoutOptions {
        var options = LayoutOptions()
        options.maxPixels = maxPixels
        if let format { options.encoding.format = format }
        for (name, value) in parameters {
            func bad() -> ServerError { ServerError(.badRequest, "bad value for \(name): \(value.prefix(80))") }
            func parsed<T>(_ make: (String) -> T?) throws -> T {
                guard value.utf8.count <= 200, let result = make(value) else { throw bad() }
                return result
            }
            func flag() throws -> Bool {
                switch value.lowercased() {
                case "", "1", "true", "yes": return true
                case "0", "false", "no": return false
                default: throw bad()
                }
            }
            func pages() throws -> [Int] {
                try value.split(separator: ",").map { part in
                    guard let page = Int(part), page >= 1, page <= 1_000_000 else { throw bad() }
                    return page
                }
            }
            switch name {
            case "size": options.size = try parsed(CanvasSize.init(parsing:))
            case "layout": options.layout = try parsed(LayoutMode.init(rawValue:))
            case "direction": options.direction = value == "auto" ? nil : try parsed(ReadingDirection.init(rawValue:))
            case "cover": options.cover = try parsed(CoverMode.init(rawValue:))
            case "page-aspect": options.pageAspect = try parsed(PageAspect.init(parsing:))
            case "wide-threshold": options.wideThreshold = try parsed(Double.init)
            case "solo": options.soloPages.formUnion(try pages())
            case "blank-before": options.blankBefore.formUnion(try pages())
            case "gap": options.gap = try parsed(Double.init)
            case "fit": options.fit = try parsed(FitMode.init(rawValue:))
            case "align": options.align = try parsed(HorizontalAlignment.init(rawValue:))
            case "background": options.background = try parsed(Color.init(parsing:))
            case "blank": options.blank = try parsed(Color.init(parsing:))
            case "strip": options.strip = try flag()
            case "color-manage":
                guard value == "auto" || value == "off" else { throw bad() }
                options.colorManage = value == "auto"
            case "quality": options.encoding.quality = try parsed(Int.init)
            case "lossless": options.encoding.lossless = try flag()
            case "compression": options.encoding.compression = try parsed(PNGCompression.init(rawValue:))
            case "format" where format == nil: options.encoding.format = try parsed(SpreadFormat.init(rawValue:))
            case "format": throw ServerError(.badRequest, "the format comes from the file extension, not a parameter")
            default: throw ServerError(.badRequest, "unknown parameter \(name.prefix(80))")
            }
        }
        do {
            try options.validate()
        } catch let error as MihirakiError {
            throw ServerError(.badRequest, error.message)
        }
        return options
    }
}
