/// Whether pages pair by position only or also by their pixels (SPEC §2, "Automatic pairing").
public enum PairingMode: String, CaseIterable, Codable, Sendable {
    /// By position only: the imposition rules and the flags.
    case `static`
    /// Also keep together two consecutive pages whose facing edges continue
    /// one artwork (a two-page picture split into two files).
    case auto
}
