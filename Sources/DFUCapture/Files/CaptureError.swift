/// A capture that cannot be read at all: which file, where in it, what is wrong and what to do.
/// Damage inside an otherwise readable capture (a cut-short record, a malformed packet) is not
/// an error: the reader keeps what it read and says so in `CapturedSession.notes`.
public struct CaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong; open, so that a newer reader's kind still prints.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The kind's name, e.g. "unknown format".
        public let rawValue: String
        /// A kind named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The file could not be opened or read.
        public static let unreadableFile = Kind(rawValue: "unreadable file")
        /// The first bytes are no magic number DFUKit knows.
        public static let unknownFormat = Kind(rawValue: "unknown format")
        /// A format DFUKit recognises but does not read (pcapng, a btsnoop datalink, a pcap link
        /// type).
        public static let unsupportedFormat = Kind(rawValue: "unsupported format")
        /// The file header is cut short or inconsistent.
        public static let malformedHeader = Kind(rawValue: "malformed header")

        /// The name.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public var kind: Kind
    /// The file (or the source name given with the bytes).
    public var file: String
    /// Byte offset in the file where the problem is, where one applies.
    public var offset: Int?
    /// What is wrong, in words.
    public var detail: String
    /// What to do about it.
    public var remedy: String

    /// An error of `kind` in `file` at `offset`.
    public init(_ kind: Kind, file: String, offset: Int? = nil, detail: String, remedy: String) {
        self.kind = kind
        self.file = file
        self.offset = offset
        self.detail = detail
        self.remedy = remedy
    }

    /// "FILE at byte N: DETAIL; REMEDY".
    public var description: String {
        let place = offset.map { "\(file) at byte \($0)" } ?? file
        return "\(place): \(detail); \(remedy)"
    }
}
