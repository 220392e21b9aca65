import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster
import Synchronization

/// Pages drawn while automatic pairing read their edges, kept until their
/// spread is rendered, so `render --pairing auto` decodes a JPEG page once.
///
/// Pairing must see every page's edges before any spread is known, and the
/// expensive part of reading a JPEG page is its entropy decoding whatever the
/// scale (about 95 % of a decode on scanned pages), so a separate edge pass
/// costs nearly a second render. Instead each page is drawn, in that one
/// decode, at the size and into the canvas layout the static plan gives it;
/// the edges come from the same decode's coefficients
/// (``PageDecoder/EdgeRequest``). A spread then takes a page's copy when its
/// rectangle has that size and its canvas that layout (a page a split moved
/// next to a colour page is drawn again), so the files are the same bytes as
/// without it. A run keeps at most ``budget`` bytes of such copies; pages
/// beyond it have their edges read on their own, as the server does.
final class DrawnAhead: Sendable {
    /// The most a run holds in drawn pages.
    static let budget = 512 << 20

    private let images: Mutex<[Leaf: PixelBuffer]>

    init(_ images: [Leaf: PixelBuffer]) { self.images = Mutex(images) }

    init(_ images: [Int: PixelBuffer]) {
        self.images = Mutex(Dictionary(uniqueKeysWithValues: images.map { (Leaf.page($0.key), $0.value) }))
    }

    /// Bytes held.
    var byteCount: Int { images.withLock { $0.values.reduce(0) { $0 + $1.pixels.count } } }

    /// A page's (or half's) copy if it has this size and layout, given up: each is drawn once.
    func take(_ leaf: Leaf, width: Int, height: Int, channels: Int) -> PixelBuffer? {
        images.withLock { images in
            guard let image = images[leaf], image.width == width, image.height == height,
                  image.channels == channels else { return nil }
            images[leaf] = nil
            return image
        }
    }
}

extension BookPlan {
    /// Every page's edges, in page order, drawing up to `budget` bytes of
    /// pages into their static-plan rectangles in the same decodes (nil when
    /// none was drawn). The first page that cannot be decoded fails the book.
    static func readEdges(_ staticPlan: BookPlan, jobs: Int, budget: Int) throws -> (edges: [PageEdges?], drawn: DrawnAhead?) {
        // Which pages to draw, and at what size: page order, until the budget is spent.
        var targets: [Int: (width: Int, height: Int, channels: Int)] = [:]
        var spent = 0
        for entry in staticPlan.entries {
            let channels = staticPlan.canvasChannels(entry)
            for slot in entry.slots {
                guard case .page(let number) = slot.leaf, slot.rect.width > 0, slot.rect.height > 0 else { continue }
                let bytes = slot.rect.width * slot.rect.height * channels
                guard spent + bytes <= budget else { continue }
                spent += bytes
                targets[number] = (slot.rect.width, slot.rect.height, channels)
            }
        }
        let sizes = targets
        let read = try readEdges(staticPlan.book, staticPlan.pages, maxPixels: staticPlan.options.maxPixels,
                                 jobs: jobs) { number, bytes in
            guard let target = sizes[number] else { return nil }
            var image = PixelBuffer(width: target.width, height: target.height, channels: target.channels)
            let request = PageEdges.request()
            try staticPlan.draw(page: number, bytes: bytes, into: &image,
                                rect: PixelRect(x: 0, y: 0, width: target.width, height: target.height),
                                timer: StageTimer(observer: nil), edges: request)
            // Rows come from the coefficients only for a page upright as stored.
            guard let rows = request.rows else {
                return (try PageEdges.read(bytes, maxPixels: staticPlan.options.maxPixels), image)
            }
            return (PageEdges(rows, width: staticPlan.headers[number - 1].storedWidth), image)
        }
        return (read.edges, read.drawn.isEmpty ? nil : DrawnAhead(read.drawn))
    }
}
