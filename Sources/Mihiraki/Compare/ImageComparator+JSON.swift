extension ImageComparator {
    /// The machine-readable form of a comparison (`compare --json`): `ok`, and
    /// one object per file with its status and pixel counts.
    /// - Parameter results: the comparisons, in the order to list them.
    /// - Returns: the JSON document, ending with a newline.
    public static func json(_ results: [FileComparison]) -> String {
        let json = JSONWriter()
        json.object {
            json.key("ok"); json.bool(results.allSatisfy { $0.status == .ok })
            json.key("files")
            json.array {
                for result in results {
                    json.object(inline: true) {
                        json.key("file"); json.string(result.name)
                        json.key("status"); json.string(result.status.name)
                        json.key("differingPixels"); json.number(result.differingPixels)
                        json.key("antialiasedPixels"); json.number(result.antialiasedPixels)
                        json.key("totalPixels"); json.number(result.totalPixels)
                        if let detail = result.detail { json.key("detail"); json.string(detail) }
                    }
                }
            }
        }
        return json.output + "\n"
    }
}
