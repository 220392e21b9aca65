/// Where pages go on the canvas: everything the geometry depends on (Mihiraki.docc/GeometryAndRounding.md).
package struct GeometryOptions: Hashable, Sendable {
    package var canvasWidth: Int
    package var canvasHeight: Int
    package var layout: LayoutMode
    package var gap: Double
    package var pageAspect: PageAspect
    package var fit: FitMode
    package var align: HorizontalAlignment

    package init(canvasWidth: Int = 2048, canvasHeight: Int = 1536, layout: LayoutMode = .spread, gap: Double = 0,
                pageAspect: PageAspect = .standard, fit: FitMode = .contain, align: HorizontalAlignment = .spine) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.layout = layout
        self.gap = gap
        self.pageAspect = pageAspect
        self.fit = fit
        self.align = align
    }
}
