import MihirakiCodecs
import MihirakiRaster

/// Writes one book's files into its folder: each spread as it is rendered,
/// then, once every spread succeeded, `manifest.json` and the contact sheet.
struct BookWriter: Sendable {
    let plan: SpreadPlan
    /// Pages the run's measuring kept for the render, if any.
    let cache: PageCache?
    let folder: String
    let options: RunOptions
    let timer: StageTimer
    /// What the output depends on, when it was taken before rendering
    /// (`--incremental`); otherwise ``finish(tiles:)`` takes it.
    let fingerprint: String?

    /// Creates the folder and removes temporaries a killed run left in it.
    func prepareFolder() throws {
        try FileSystem.makeDirectories(folder)
        FileSystem.removeStaleTemporaries(in: folder)
    }

    /// Renders, encodes and writes spread `index`.
    /// - Returns: the file name or the error, and the contact-sheet tile when asked for.
    func writeSpread(_ index: Int) -> (Result<String, MihirakiError>, PixelBuffer?, writeFailed: Bool) {
        let entry = plan.entries[index]
        let path = folder + "/" + entry.file
        let bytes: [UInt8], tile: PixelBuffer?
        do {
            let image = try SpreadRenderer(plan: plan, cache: cache).render(at: index, observer: timer.observer)
            tile = options.contactSheet ? ContactSheet.tile(image) : nil
            bytes = try timer.measure(.encode) { try plan.encode(image, path: path) }
        } catch {
            return (.failure(MihirakiError.from(error, path: path)), nil, false)
        }
        do {
            try timer.measure(.write) { try write(bytes, to: path) }
            return (.success(entry.file), tile, false)
        } catch {
            return (.failure(MihirakiError.from(error, path: path)), nil, true)
        }
    }

    /// Writes `bytes` to `path` atomically; with ``RunOptions/keepUnchangedFiles``,
    /// not at all when the file already holds exactly those bytes.
    private func write(_ bytes: [UInt8], to path: String) throws {
        if options.keepUnchangedFiles, FileSystem.kind(path) == .file,
           (try? FileSystem.read(path)) == bytes { return }
        try FileSystem.writeAtomically(bytes, to: path)
    }

    /// Writes, when asked for, `contact-sheet.<ext>` from the tiles in file
    /// order, and then `manifest.json` — last, so a book with a manifest is
    /// complete; an incremental run then removes spreads the book no longer has.
    func finish(tiles: [PixelBuffer]) throws {
        if options.contactSheet {
            let sheet = ContactSheet.make(tiles: tiles, labels: plan.entries.map(\.spread.description))
            let path = folder + "/" + Self.contactSheetName(plan.options.encoding.format)
            try write(plan.encode(sheet, path: path), to: path)
        }
        if options.writeComicInfo {
            try write(plan.comicInfoMarkingSplits(), to: folder + "/" + Self.comicInfoName)
        }
        var manifest = plan.manifest
        manifest.fingerprint = try fingerprint ?? Fingerprint.of(plan, run: options)
        try write(Array(manifest.json.utf8), to: folder + "/manifest.json")
        if options.incremental { removeSpreadsNoLongerProduced() }
    }

    /// Whether the folder already holds this book's output: a manifest with
    /// the same fingerprint, and every file it lists.
    func isUpToDate() -> Bool {
        Self.isUpToDate(folder: folder, fingerprint: fingerprint, alsoWritten: Self.alsoWritten(plan.options, run: options))
    }

    /// Whether `folder` holds a manifest with `fingerprint`, every file it
    /// lists, and every file of `alsoWritten`.
    static func isUpToDate(folder: String, fingerprint: String?, alsoWritten: [String]) -> Bool {
        guard let fingerprint, let bytes = try? FileSystem.read(folder + "/manifest.json"),
              let manifest = try? Manifest(json: bytes), manifest.fingerprint == fingerprint else { return false }
        let files = manifest.spreads.map(\.file) + alsoWritten
        return files.allSatisfy { FileSystem.kind(folder + "/" + $0) == .file }
    }

    /// The files a render writes beside the spreads and the manifest, as the
    /// run options ask: the contact sheet, `ComicInfo.xml`.
    static func alsoWritten(_ options: LayoutOptions, run: RunOptions) -> [String] {
        (run.contactSheet ? [contactSheetName(options.encoding.format)] : []) + (run.writeComicInfo ? [comicInfoName] : [])
    }

    /// The book's ComicInfo.xml with its splits marked (``RunOptions/writeComicInfo``).
    static let comicInfoName = "ComicInfo.xml"

    /// `contact-sheet.png`, `.jpg`, …: the contact sheet follows the spreads' format.
    static func contactSheetName(_ format: SpreadFormat) -> String {
        "contact-sheet." + format.fileExtension
    }

    /// Spread files (`spread-NNN.<ext>`, any format Mihiraki writes) of an
    /// earlier render that this one does not produce, and an earlier
    /// contact sheet in another format.
    private func removeSpreadsNoLongerProduced() {
        var current = Set(plan.entries.map(\.file))
        if options.contactSheet { current.insert(Self.contactSheetName(plan.options.encoding.format)) }
        for name in (try? FileSystem.list(folder)) ?? [] where !current.contains(name) {
            guard let dot = name.lastIndex(of: "."), SpreadFormat(fileExtension: String(name[name.index(after: dot)...])) != nil
            else { continue }
            let stem = name[..<dot]
            let number = stem.dropFirst("spread-".count)
            if (stem.hasPrefix("spread-") && number.count >= 3 && number.allSatisfy(\.isNumber)) || stem == "contact-sheet" {
                FileSystem.remove(folder + "/" + name)
            }
        }
    }
}
