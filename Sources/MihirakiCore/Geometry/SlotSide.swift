/// Which part of a spread a slot is, as the manifest names it.
package enum SlotSide: String, Hashable, Sendable {
    case left, right, wide, single
}
