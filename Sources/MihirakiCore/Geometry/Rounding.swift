/// The rounding rule of Mihiraki.docc/GeometryAndRounding.md: `floor(v + 0.5)`.
@inline(__always)
package func snap(_ value: Double) -> Double { (value + 0.5).rounded(.down) }
