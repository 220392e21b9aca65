/// A value in thousandths as a decimal with three places, `0.912` for 912 and
/// `-0.091` for −91: how `plan --explain` and the manifest write the
/// detector's integer measures.
func decimal(thousandths value: Int) -> String {
    let magnitude = abs(value), fraction = String(magnitude % 1000)
    return (value < 0 ? "-" : "") + "\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
