/// Why bytes could not be decoded as exactly one CBOR item.
package struct CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
        /// The input is empty.
        case empty
        /// The input ends inside the item that starts at `offset`.
        case truncated
        /// The byte at `offset` does not start a well-formed item (reserved additional
        /// information, a length that cannot be right, ...).
        case malformed
        /// One complete item ended before the input did; `count` bytes follow it from `offset`.
        case trailingBytes(count: Int)
        /// A break (0xff) at `offset` outside an indefinite-length item.
        case unexpectedBreak
        /// A chunk of an indefinite-length string at `offset` is not a definite string of
        /// the same major type.
        case invalidStringChunk
        /// A text string at `offset` is not valid UTF-8.
        case invalidUTF8
        /// A tag at `offset`: `CBORValue` has no tags.
        case unsupportedTag(UInt64)
        /// `undefined` at `offset`: `CBORValue` has no such value.
        case unsupportedUndefined
        /// Arrays and maps nest deeper than `limit` at `offset`.
        case nestingTooDeep(limit: Int)
    }

    package var reason: Reason
    /// Byte offset in the input the reason refers to.
    package var offset: Int

    package init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    package var description: String {
        switch reason {
        case .empty:
            return "CBOR: the input is empty, expected one item"
        case .truncated:
            return "CBOR: the input ends inside the item at byte \(offset)"
        case .malformed:
            return "CBOR: malformed item at byte \(offset)"
        case let .trailingBytes(count):
            return "CBOR: \(count) byte(s) follow the item, from byte \(offset)"
        case .unexpectedBreak:
            return "CBOR: break (0xff) at byte \(offset) outside an indefinite-length item"
        case .invalidStringChunk:
            return "CBOR: the chunk at byte \(offset) of an indefinite-length string is not a definite string of its type"
        case .invalidUTF8:
            return "CBOR: the text string at byte \(offset) is not valid UTF-8"
        case let .unsupportedTag(tag):
            return "CBOR: tag \(tag) at byte \(offset) is not supported"
        case .unsupportedUndefined:
            return "CBOR: undefined at byte \(offset) is not supported"
        case let .nestingTooDeep(limit):
            return "CBOR: arrays and maps nest deeper than \(limit) levels at byte \(offset)"
        }
    }
}
