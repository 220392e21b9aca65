import Mihiraki

/// Query parameters → ``LayoutOptions``, through the library's option
/// table: a parameter is named as its command-line flag (`size`, `direction`,
/// `solo`, …) and parsed the same way; `format` where the URL has no
/// extension. An unknown name or a bad value is a 400 naming it and what it
/// takes; so is a canvas over the pixel limit.
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
        for (name, _) in parameters {
            if name == "format" && format != nil {
                throw ServerError(.badRequest, "the format comes from the file extension, not a parameter")
            }
            guard name == "format" || LayoutOptions.option(named: name)?.isQueryParameter == true else {
                throw ServerError(.badRequest, "unknown parameter \(name.prefix(80))")
            }
        }
        do {
            try options.set(parameters)
            try options.validate()
        } catch let error as MihirakiError {
            throw ServerError(.badRequest, error.spelled(.query).message)
        }
        return options
    }
}
