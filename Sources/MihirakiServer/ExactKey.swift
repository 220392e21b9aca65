/// Text compared and hashed by its exact UTF-8 bytes. Swift's `String`
/// equality is canonical equivalence: NFC "café" equals NFD "café", yet on
/// disk they are two paths and so two books. Book ids and every cache key
/// made from one are `ExactKey`s, so neither book can hide the other.
struct ExactKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }
}
