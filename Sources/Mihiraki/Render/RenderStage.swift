import Dispatch

/// The stages a spread goes through, as a ``RenderObserver`` hears of them.
package enum RenderStage: String, CaseIterable, Sendable {
    /// Reading page bytes from a folder or an archive.
    case read
    /// Decoding page rows.
    case decode
    /// Resampling rows into the canvas.
    case resample
    /// Reducing the canvas to its output colour type.
    case compose
    /// Encoding the output image.
    case encode
    /// Writing the output file.
    case write
}
