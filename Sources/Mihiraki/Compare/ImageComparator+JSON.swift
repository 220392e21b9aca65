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
                    json.object(inline: true) { writeKeys(of: result, to: json) }
                }
            }
        }
        return json.output + "\n"
    }

    /// `compare --json` for two book folders (SPEC §5b): today's keys, with
    /// `ok` the book's verdict, `plan` beside `files`, and each file's
    /// `slots` (the pages drawn in it, then its background).
    package static func json(_ book: BookComparison, files: [FileComparison], lines: Bool = false) -> String {
        let json = JSONWriter()
        json.object {
            json.key("ok"); json.bool(book.ok)
            if lines {
                // The text lines too, for callers that show them (the C ABI's Python).
                json.key("lines"); json.array { for line in book.lines { json.string(line) } }
            }
            json.key("plan"); book.difference.write(to: json)
            json.key("files")
            writeFiles(files, slots: book.slots, to: json)
        }
        return json.output + "\n"
    }

    /// `compare --json` for two OUTDIRs of books (SPEC §5b): `{ "ok",
    /// "books": [ { "book", "ok", "plan", "files" } ] }`; a book on one side
    /// only has no plan and its one file entry says `missing` or `extra`.
    package static func json(books: [(name: String, comparison: BookComparison?, files: [FileComparison])]) -> String {
        let json = JSONWriter()
        json.object {
            json.key("ok"); json.bool(books.allSatisfy { $0.comparison?.ok ?? false })
            json.key("books")
            json.array {
                for book in books {
                    json.object {
                        json.key("book"); json.string(book.name)
                        json.key("ok"); json.bool(book.comparison?.ok ?? false)
                        json.key("plan")
                        if let comparison = book.comparison { comparison.difference.write(to: json) } else { json.array {} }
                        json.key("files")
                        writeFiles(book.files, slots: book.comparison?.slots ?? [], to: json)
                    }
                }
            }
        }
        return json.output + "\n"
    }

    /// A file's keys as `compare --json` has always written them.
    private static func writeKeys(of result: FileComparison, to json: JSONWriter) {
        json.key("file"); json.string(result.name)
        json.key("status"); json.string(result.status.name)
        json.key("differingPixels"); json.number(result.differingPixels)
        json.key("antialiasedPixels"); json.number(result.antialiasedPixels)
        json.key("totalPixels"); json.number(result.totalPixels)
        if let detail = result.detail { json.key("detail"); json.string(detail) }
    }

    /// The `files` array: one object per file, with `slots` where there are slots.
    private static func writeFiles(_ files: [FileComparison], slots: [BookComparison.Slot], to json: JSONWriter) {
        json.array {
            for result in files {
                json.object {
                    writeKeys(of: result, to: json)
                    json.key("slots")
                    json.array {
                        for slot in slots where slot.file == result.name { write(slot, to: json) }
                    }
                }
            }
        }
    }

    private static func write(_ slot: BookComparison.Slot, to json: JSONWriter) {
        json.object(inline: true) {
            json.key("page"); if let page = slot.page { json.number(page) } else { json.null() }
            json.key("side"); json.string(slot.side)
            json.key("verdict"); json.string(slot.verdict.rawValue)
            if let shift = slot.shift { json.key("shift"); json.numbers([shift.dx, shift.dy]) }
            if let page = slot.swappedWith { json.key("swappedWith"); json.number(page) }
            json.key("differingPixels"); json.number(slot.differingPixels)
            json.key("regions")
            json.array {
                for region in slot.regions {
                    json.object(inline: true) {
                        json.key("pageBox"); json.numbers([region.page.x, region.page.y, region.page.width, region.page.height])
                        json.key("canvasBox")
                        json.numbers([region.canvas.x, region.canvas.y, region.canvas.width, region.canvas.height])
                    }
                }
            }
        }
    }
}
