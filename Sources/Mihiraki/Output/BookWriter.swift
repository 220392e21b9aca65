import MihirakiCodecs
import MihirakiRaster

/// Writes one book's files into its folder: each spread as it is rendered,
/// then, once every spread succeeded, `manifest.json` and the contact sheet.
struct BookWriter: Sendable {
    let plan: BookPlan
    let folder: String
    let options: RunOptions
    let timer: StageTimer

    /// Creates the folder and removes temporaries a killed run left in it.
    func prepareFolder() throws {
        try FileSystem.makeDirectories(folder)
        FileSystem.removeStaleTemporaries(in: folder)
    }

    /// Renders, encodes and writes spread `index`.
    /// - Returns: the file name or the error, and the contact-sheet tile when asked for.
    func writeSpread(_ index: Int) -> (Result<String, MihirakiError>, PixelBuffer?) {
        let entry = plan.entries[index]
        let path = folder + "/" + entry.file
        do {
            let image = try plan.renderSpread(at: index, observer: timer.observer)
            let tile = options.contactSheet ? ContactSheet.tile(image) : nil
            let png = try timer.measure(.encode) { try Self.encode(image, compression: options.compression, path: path) }
            try timer.measure(.write) { try FileSystem.writeAtomically(png, to: path) }
            return (.success(entry.file), tile)
        } catch {
            return (.failure(MihirakiError.from(error, path: path)), nil)
        }
    }

    /// Writes `manifest.json` and, when asked for, `contact-sheet.png` from the tiles in file order.
    func finish(tiles: [PixelBuffer]) throws {
        try FileSystem.writeAtomically(Array(plan.manifest.json.utf8), to: folder + "/manifest.json")
        if options.contactSheet {
            let sheet = ContactSheet.make(tiles: tiles, labels: plan.entries.map(\.spread.description))
            let path = folder + "/contact-sheet.png"
            try FileSystem.writeAtomically(Self.encode(sheet, compression: options.compression, path: path), to: path)
        }
    }

    static func encode(_ image: PixelBuffer, compression: PNGCompression, path: String) throws -> [UInt8] {
        try MihirakiError.wrapping(path: path) { try PNGEncoder.encode(image, compression: compression) }
    }
}
