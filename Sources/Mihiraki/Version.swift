/// Mihiraki's version, as `mihiraki --version` prints it.
public enum MihirakiVersion {
    /// `major.minor.patch`.
    public static let current = "0.2.0"
}
