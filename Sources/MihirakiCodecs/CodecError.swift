/// Why a page could not be read or an image could not be written.
package struct CodecError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Code: String, Hashable, Sendable {
        /// Damaged or truncated data.
        case corrupt
        /// Well-formed, but a format or feature Mihiraki does not read.
        case unsupported
        /// The header asks for more pixels than allowed (`--max-pixels`).
        case tooLarge
        /// Memory could not be allocated.
        case outOfMemory
    }

    package var code: Code
    /// One line, without the file name: the caller knows which file it read.
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
