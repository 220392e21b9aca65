import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster
import Synchronization

/// Pages a run's measuring decoded, kept for its render: one per run,
/// owned by the renderer (``BookRenderer/PlannedBooks``), never by a plan.
///
/// Two kinds are kept, each given up when drawn:
///
/// - **Pages drawn ahead** by `--pairing auto`. Pairing must see every
///   page's edges before any spread is known, and the expensive part of
///   reading a JPEG page is its entropy decoding whatever the scale (about
///   95 % of a decode on scanned pages), so a separate edge pass costs
///   nearly a second render. Instead each page is drawn, in that one decode,
///   at the size and into the canvas layout the plan without pairing gives
///   it; the edges come from the same decode's coefficients
///   (``PageDecoder/EdgeRequest``). A spread takes a page's copy when its
///   rectangle has that size and its canvas that layout (a page a split
///   moved next to a colour page is drawn again), so the files are the same
///   bytes as without it.
/// - **Cut pages as measured** by `--split-wide auto` and `--crop-borders`:
///   the decode the cut was measured in, which the render draws the page's
///   boxes from (a split page's two halves share it).
///
/// A run keeps at most ``budget`` bytes; pages beyond it are decoded again
/// when drawn, giving the same pixels.
package final class PageCache: Sendable {
    /// The most a run holds in decoded pages.
    static let budget = 512 << 20

    private struct Key: Hashable {
        var book: String
        var leaf: Leaf
    }

    private struct State {
        var drawn: [Key: PixelBuffer] = [:]
        var samples: [Key: PixelBuffer] = [:]
        /// Bytes taken from the budget, given back only with the cache.
        var spent = 0
    }

    private let budget: Int
    private let state = Mutex(State())

    package init(budget: Int = PageCache.budget) { self.budget = budget }

    /// Bytes the run has kept so far, or of one book.
    package func byteCount(of book: String? = nil) -> Int {
        state.withLock { state in
            let held = state.drawn.filter { book == nil || $0.key.book == book }.values.map(\.pixels.count)
            // A split page's two halves share one decode.
            let samples = Dictionary(state.samples.filter { book == nil || $0.key.book == book }
                .map { (Key(book: $0.key.book, leaf: .page($0.key.leaf.pageNumber ?? 0)), $0.value.pixels.count) },
                uniquingKeysWith: { first, _ in first })
            return held.reduce(0, +) + samples.values.reduce(0, +)
        }
    }

    /// Takes `bytes` from the budget, or says there is not enough left.
    func reserve(_ bytes: Int) -> Bool {
        state.withLock { state in
            guard state.spent + bytes <= budget else { return false }
            state.spent += bytes
            return true
        }
    }

    /// Keeps a page drawn ahead, its bytes reserved beforehand (``reserve(_:)``).
    func keep(drawn image: PixelBuffer, for leaf: Leaf, of book: String) {
        state.withLock { $0.drawn[Key(book: book, leaf: leaf)] = image }
    }

    /// Keeps a cut page's measured decode for each of `leaves` (the page, or its two halves), within the budget.
    func keep(sample: PixelBuffer, for leaves: [Leaf], of book: String) {
        guard reserve(sample.pixels.count) else { return }
        state.withLock { state in
            for leaf in leaves { state.samples[Key(book: book, leaf: leaf)] = sample }
        }
    }

    /// A page's (or half's) copy drawn ahead, if it has this size and layout, given up.
    func takeDrawn(_ leaf: Leaf, of book: String, width: Int, height: Int, channels: Int) -> PixelBuffer? {
        state.withLock { state in
            let key = Key(book: book, leaf: leaf)
            guard let image = state.drawn[key], image.width == width, image.height == height,
                  image.channels == channels else { return nil }
            state.drawn[key] = nil
            return image
        }
    }

    /// A cut page's measured decode, for drawing `leaf`, given up.
    func takeSample(_ leaf: Leaf, of book: String) -> PixelBuffer? {
        state.withLock { $0.samples.removeValue(forKey: Key(book: book, leaf: leaf)) }
    }
}
