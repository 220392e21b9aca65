/// Which pages share an image: everything the imposition rules depend on (Mihiraki.docc/ImpositionRules.md).
package struct ImpositionOptions: Hashable, Sendable {
    package var layout: LayoutMode
    package var direction: ReadingDirection
    package var cover: CoverMode
    /// Pages shown alone with a blank partner (`--solo`).
    package var soloPages: Set<Int>
    /// Pages that get a blank inserted before them (`--blank-before`).
    package var blankBefore: Set<Int>
    /// Write a right-to-left book in visual order (last spread first).
    package var strip: Bool
    /// Whether the last page stands alone as a back cover (`--back-cover`).
    package var backCover: BackCoverMode

    package init(layout: LayoutMode = .spread, direction: ReadingDirection = .ltr, cover: CoverMode = .alone,
                soloPages: Set<Int> = [], blankBefore: Set<Int> = [], strip: Bool = false,
                backCover: BackCoverMode = .paired) {
        self.layout = layout
        self.direction = direction
        self.cover = cover
        self.soloPages = soloPages
        self.blankBefore = blankBefore
        self.strip = strip
        self.backCover = backCover
    }
}
