/// Which release of Mihiraki this is.
// (Not `MihirakiVersion`: symbol-graph tools drop `<Module>Version…` names,
// the pattern of the version symbols Apple's frameworks export.)
public enum MihirakiRelease {
    /// `major.minor.patch`, as `mihiraki --version` prints it.
    public static let version = "0.3.0"
}
