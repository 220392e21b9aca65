/// Where a layout decision came from, as `plan --explain` shows it.
enum Origin: String, Hashable, Sendable {
    case flag
    case comicInfo = "ComicInfo.xml"
    case epubSpine = "EPUB spine"
    case pdfCatalog = "PDF catalog"
    case pageSize = "page size"
    case kccLabels = "KCC spread labels"
    case `default`
}
