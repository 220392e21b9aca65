import MihirakiTestSupport
import Testing
@testable import MihirakiCore

@Suite("Geometry (GeometryAndRounding.md)", .tags(.unit), .timeLimit(.minutes(10)))
struct GeometryTests {
    func place(_ spread: Spread, sizes: [Int: (Int, Int)], _ options: GeometryOptions = GeometryOptions())
        -> [PlacedSlot] {
        Layout.place(spread, pageSize: { sizes[$0.pageNumber!]! }, options: options)
    }

    @Test("The worked example: 1500×2134 right page on 2048×1536 is [1024, 66, 987, 1404]")
    func workedExample() {
        let frames = SlotFrames(options: GeometryOptions())
        #expect(abs(frames.left.width - 986.88) < 1e-9)
        #expect(abs(frames.left.minX - 37.12) < 1e-9)
        #expect(frames.right.minX == 1024)
        let slots = place(.pair(left: .blank, right: .page(2)), sizes: [2: (1500, 2134)])
        let right = slots[1]
        #expect(right.side == .right)
        #expect(abs(right.frame.width - 986.88) < 1e-9)
        #expect(abs(right.frame.height - 1404.0013) < 1e-4)
        #expect(abs(right.frame.minY - 65.9994) < 1e-4)
        #expect(right.rect == PixelRect(x: 1024, y: 66, width: 987, height: 1404))
        // The blank is its mirror across the spine.
        #expect(slots[0].leaf == .blank)
        #expect(slots[0].rect == PixelRect(x: 37, y: 66, width: 987, height: 1404))
    }

    @Test("The manifest format's example: page 1 on the left of an RTL cover, blank on the right")
    func manifestExample() {
        let slots = place(.pair(left: .page(1), right: .blank), sizes: [1: (1500, 2134)])
        #expect(slots.map(\.rect) == [PixelRect(x: 37, y: 66, width: 987, height: 1404),
                                      PixelRect(x: 1024, y: 66, width: 987, height: 1404)])
        #expect(slots.map(\.side) == [.left, .right])
    }

    @Test("Fit to height when (W − g)/H ≥ 1542/1200, else fit to width")
    func switchRule() {
        // 1542×1200 is exactly the limit: fit to height, slots fill the canvas.
        let exact = SlotFrames(options: GeometryOptions(canvasWidth: 1542, canvasHeight: 1200))
        #expect(exact.left.minX == 0 && exact.left.maxX == 771 && exact.right.maxX == 1542 && exact.left.minY == 0)
        // 1400×1200 (1 < W/H < 1.285): the old W > H rule would overflow; fit to width.
        let narrow = SlotFrames(options: GeometryOptions(canvasWidth: 1400, canvasHeight: 1200))
        #expect(narrow.left.minX == 0 && narrow.left.width == 700)
        #expect(abs(narrow.left.height - 1200 * 700 / 771.0) < 1e-9)
        #expect(narrow.left.minY > 0 && narrow.left.maxY < 1200)
        // Portrait canvas: fit to width too.
        let portrait = SlotFrames(options: GeometryOptions(canvasWidth: 800, canvasHeight: 1600))
        #expect(portrait.left.width == 400 && abs(portrait.left.minY - (1600 - 400 * 1200 / 771.0) / 2) < 1e-9)
    }

    @Test("The gap separates the slots around the centre line")
    func gap() {
        let frames = SlotFrames(options: GeometryOptions(canvasWidth: 2048, canvasHeight: 1536, gap: 20))
        #expect(frames.left.maxX == 1014 && frames.right.minX == 1034)
        let slots = place(.pair(left: .page(1), right: .page(2)), sizes: [1: (771, 1200), 2: (771, 1200)],
                          GeometryOptions(gap: 20))
        #expect(slots[0].rect.x + slots[0].rect.width == 1014)
        #expect(slots[1].rect.x == 1034)
        // Fit to width with a gap: (W − g)/2 per slot.
        let narrow = SlotFrames(options: GeometryOptions(canvasWidth: 1000, canvasHeight: 1500, gap: 10))
        #expect(narrow.left.width == 495 && narrow.right.minX == 505 && narrow.right.maxX == 1000)
    }

    @Test("--page-aspect replaces 771×1200")
    func pageAspect() {
        let a4 = GeometryOptions(canvasWidth: 2000, canvasHeight: 1414, pageAspect: PageAspect(parsing: "1x1.414")!)
        let frames = SlotFrames(options: a4)
        #expect(abs(frames.left.width - 1000) < 1e-9 && frames.left.minX.magnitude < 1e-9)
        #expect(PageAspect(parsing: "771x1200") == .standard)
        #expect(PageAspect(parsing: "0x5") == nil && PageAspect(parsing: "abc") == nil && PageAspect(parsing: "3x") == nil)
    }

    @Test("Pages meet at the spine: no seam, no overlap, for any pair of page sizes")
    func spineMeets() {
        var generator = SplitMix(seed: 7)
        for _ in 0..<2000 {
            let w = Int(generator.next() % 3000) + 200, h = Int(generator.next() % 3000) + 200
            let canvasW = Int(generator.next() % 3000) + 100, canvasH = Int(generator.next() % 3000) + 100
            let sizes = [1: (Int(generator.next() % 4000) + 1, Int(generator.next() % 4000) + 1), 2: (w, h)]
            let slots = place(.pair(left: .page(1), right: .page(2)), sizes: sizes,
                              GeometryOptions(canvasWidth: canvasW, canvasHeight: canvasH))
            #expect(slots[0].rect.x + slots[0].rect.width == slots[1].rect.x)
            for slot in slots {
                #expect(slot.rect.x >= 0 && slot.rect.y >= 0)
                #expect(slot.rect.x + slot.rect.width <= canvasW && slot.rect.y + slot.rect.height <= canvasH)
            }
        }
    }

    @Test("A blank mirrors its partner's rectangle, on both sides")
    func blankMirror() {
        let options = GeometryOptions(canvasWidth: 1600, canvasHeight: 1000)
        let left = place(.pair(left: .page(1), right: .blank), sizes: [1: (500, 1000)], options)
        #expect(left[0].rect == PixelRect(x: 300, y: 0, width: 500, height: 1000))
        #expect(left[1].rect == PixelRect(x: 800, y: 0, width: 500, height: 1000))
        let right = place(.pair(left: .blank, right: .page(1)), sizes: [1: (500, 1000)], options)
        #expect(right[0].rect == left[0].rect && right[1].rect == left[1].rect)
    }

    @Test("--align center centres pages in their slots")
    func alignCenter() {
        let options = GeometryOptions(canvasWidth: 1600, canvasHeight: 1000, pageAspect: PageAspect(width: 1, height: 1),
                                      align: .center)
        // Slots are 800×800 … fit to width: (1600)/1000 < 2 → slotW 800, y 100.
        let slots = place(.pair(left: .page(1), right: .page(2)), sizes: [1: (400, 800), 2: (400, 800)], options)
        #expect(slots[0].rect == PixelRect(x: 200, y: 100, width: 400, height: 800))
        #expect(slots[1].rect == PixelRect(x: 1000, y: 100, width: 400, height: 800))
        var spine = options
        spine.align = .spine
        let pushed = place(.pair(left: .page(1), right: .page(2)), sizes: [1: (400, 800), 2: (400, 800)], spine)
        #expect(pushed[0].rect == PixelRect(x: 400, y: 100, width: 400, height: 800))
        #expect(pushed[1].rect == PixelRect(x: 800, y: 100, width: 400, height: 800))
    }

    @Test("--fit stretch fills the slot exactly")
    func stretch() {
        var options = GeometryOptions()
        options.fit = .stretch
        let slots = place(.pair(left: .page(1), right: .page(2)), sizes: [1: (100, 100), 2: (3000, 100)], options)
        #expect(slots[0].rect == PixelRect(x: 37, y: 0, width: 987, height: 1536))
        #expect(slots[1].rect == PixelRect(x: 1024, y: 0, width: 987, height: 1536))
    }

    @Test("A wide page is centred in the union of both slots")
    func widePage() {
        let slots = place(.wide(3), sizes: [3: (3000, 2000)])
        // Union slot: x 37.12…2010.88 (1973.76 wide), height 1536: width-bound.
        #expect(slots.count == 1 && slots[0].side == .wide)
        let r = slots[0].rect
        #expect(r.x == 37 && r.x + r.width == 2011)
        #expect(abs(slots[0].frame.height - 1973.76 * 2000 / 3000) < 1e-9)
        #expect(r.y == Int(snap((1536 - 1973.76 * 2 / 3) / 2)))
    }

    @Test("Single mode: one 771×1200 slot centred in the canvas; wide pages use the canvas")
    func singleMode() {
        let options = GeometryOptions(canvasWidth: 2048, canvasHeight: 1536, layout: .single)
        let frames = SlotFrames(options: options)
        #expect(frames.single.height == 1536 && abs(frames.single.width - 986.88) < 1e-9)
        #expect(abs(frames.single.minX - (2048 - 986.88) / 2) < 1e-9)
        let page = place(.single(1), sizes: [1: (771, 1200)], options)
        // x: 530.56 → 531, right edge 1517.44 → 1517.
        #expect(page[0].side == .single && page[0].rect == PixelRect(x: 531, y: 0, width: 986, height: 1536))
        let wide = place(.wide(1), sizes: [1: (4000, 1000)], options)
        #expect(wide[0].side == .wide && wide[0].rect == PixelRect(x: 0, y: 512, width: 2048, height: 512))
        let tall = SlotFrames(options: GeometryOptions(canvasWidth: 600, canvasHeight: 2000, layout: .single))
        #expect(tall.single.width == 600 && abs(tall.single.height - 600 * 1200 / 771.0) < 1e-9)
    }

    @Test("Snapping is floor(v + 0.5) on each edge")
    func snapping() {
        #expect(snap(2.5) == 3 && snap(2.4999) == 2 && snap(-0.5) == 0 && snap(65.9994) == 66)
        #expect(RealRect(minX: 0.5, minY: 1.49, maxX: 10.5, maxY: 3.5).snapped == PixelRect(x: 1, y: 1, width: 10, height: 3))
    }
}

/// A tiny deterministic generator for property tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
