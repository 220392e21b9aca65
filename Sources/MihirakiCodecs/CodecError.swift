/// Why a page could not be read or an image could not be written.
public struct CodecError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
        /// Damaged or truncated data.
        case corrupt
        /// Well-formed, but a format or feature Mihiraki does not read.
        case unsupported
        /// The header asks for more pixels than allowed (`--max-pixels`).
        case tooLarge
        /// Memory could not be allocated.
        case outOfMemory
    }

    public var code: Code
    /// One line, without the file name: the caller knows which file it read.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
