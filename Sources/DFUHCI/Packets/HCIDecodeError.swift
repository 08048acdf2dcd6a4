import DFUBytes

/// A packet from the controller (or the peer) that could not be decoded: what it was and why.
package struct HCIDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message being decoded, e.g. "LE Connection Complete".
    package var message: String
    package var reason: String

    package init(_ message: String, _ reason: String) {
        self.message = message
        self.reason = reason
    }

    package var description: String { "malformed \(message): \(reason)" }
}

/// Decodes `bytes` with `body`, turning a short read into an `HCIDecodeError` naming `message`.
/// Trailing bytes are tolerated: newer controllers may append fields.
func decodeParameters<Value>(_ message: String, _ bytes: [UInt8],
                             _ body: (inout ByteReader) throws(ByteReaderError) -> Value) throws(HCIDecodeError) -> Value {
    var reader = ByteReader(bytes)
    do {
        return try body(&reader)
    } catch {
        throw HCIDecodeError(message, error.description)
    }
}
