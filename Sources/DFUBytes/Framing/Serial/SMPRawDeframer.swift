/// What `SMPRawDeframer` found in the bytes fed to it, or at an idle line.
public enum SMPRawDeframerOutput: Sendable, Hashable {
    /// A whole SMP message: the 8-byte header and the body its length field announces.
    case message([UInt8])
    /// Bytes dropped: a header that cannot be meant, or a message cut short by an idle line.
    case discarded(SMPRawDiscard)
}

/// Cuts a raw binary SMP stream (no base64, no CRC, no markers) into messages by the length in
/// each 8-byte header, in any split: feeding the stream byte by byte or in pieces of any size
/// gives the same outputs in the same order.
///
/// This is Zephyr's "raw UART" transport (`CONFIG_MCUMGR_TRANSPORT_RAW_UART` with the
/// `uart_mcumgr` driver in `CONFIG_UART_MCUMGR_RAW_PROTOCOL` mode; Zephyr 4.4), smpclient's
/// `SMPSerialRawTransport` and MCUboot's `MCUBOOT_SERIAL_RAW_PROTOCOL`. A message is the header
/// (byte 0 = version << 3 | operation, flags, body length big-endian u16 at offset 2, group,
/// sequence, command) and that many body bytes; the next byte starts the next header. As in
/// Zephyr's `mcumgr_serial_process_frag` (`subsys/mgmt/mcumgr/transport/src/serial_util.c`), a
/// header announcing more than `maximumMessageLength` bytes or an operation above 3 is dropped
/// as soon as its 8 bytes are in, and the byte after it is read as a new header. (MCUboot's
/// `boot_serial_input_raw` drops everything it has buffered instead; its only valid operations
/// are the requests, 0 and 2.)
///
/// The stream has nothing to resynchronise on, so the receiver relies on a timeout: Zephyr's
/// `CONFIG_MCUMGR_TRANSPORT_RAW_UART_INPUT_TIMEOUT` (`..._TIME_MS`, 3000 by default) clears a
/// partial message that is not complete in time (`smp_raw_uart.c`); MCUboot's
/// `MCUBOOT_SERIAL_RAW_PROTOCOL_INPUT_TIMEOUT` does once no byte came for its window. Pure: no
/// clock here; the driver that reads the line calls `idle()` when its own timeout passes.
public struct SMPRawDeframer: Sendable {
    /// The SMP header's length: 8 bytes.
    public static let headerLength = 8

    /// The longest message accepted, header included.
    public let maximumMessageLength: Int
    /// Bytes fed since `init`.
    public private(set) var streamByteCount = 0

    private var state: State = .header([], start: 0)

    private enum State: Sendable {
        /// The first bytes of a header that begins at stream offset `start`.
        case header([UInt8], start: Int)
        /// A message whose header announced `expected` bytes, of which `bytes` have arrived.
        case body([UInt8], expected: Int, start: Int)
    }

    /// A deframer that accepts messages of at most `maximumMessageLength` bytes, header included
    /// (at least 8): 384 by default, Zephyr's `CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE` default and
    /// smpclient's `SMPSerialRawTransport(mtu:)` default.
    public init(maximumMessageLength: Int = 384) {
        precondition(maximumMessageLength >= Self.headerLength,
                     "an SMP message needs at least its 8-byte header, not \(maximumMessageLength) bytes")
        self.maximumMessageLength = maximumMessageLength
    }

    /// Reads `bytes`, the next piece of the stream, and returns what it completes, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [SMPRawDeframerOutput] {
        var outputs: [SMPRawDeframerOutput] = []
        for byte in bytes {
            if let output = consume(byte, at: streamByteCount) {
                outputs.append(output)
            }
            streamByteCount += 1
        }
        return outputs
    }

    /// Tells the deframer that the line has been idle past the receiver's timeout: a partial
    /// message is dropped (and reported); the next byte starts a header.
    public mutating func idle() -> [SMPRawDeframerOutput] {
        let next = State.header([], start: streamByteCount)
        defer { state = next }
        switch state {
        case let .header(bytes, start) where !bytes.isEmpty:
            return [discard(.incompleteAtIdle(received: bytes.count, expected: nil), start: start, count: bytes.count)]
        case let .body(bytes, expected, start):
            return [discard(.incompleteAtIdle(received: bytes.count, expected: expected), start: start, count: bytes.count)]
        case .header:
            return []
        }
    }

    private mutating func consume(_ byte: UInt8, at offset: Int) -> SMPRawDeframerOutput? {
        let next = State.header([], start: offset + 1)
        switch state {
        case .header(var bytes, let start):
            state = next  // drops the state's copy, so that the bytes grow in place
            bytes.append(byte)
            guard bytes.count == Self.headerLength else {
                state = .header(bytes, start: start)
                return nil
            }
            let expected = Self.headerLength + (Int(bytes[2]) << 8 | Int(bytes[3]))
            let operation = bytes[0] & 0x07
            if expected > maximumMessageLength {
                return discard(.messageTooLong(announced: expected, limit: maximumMessageLength), start: start,
                               count: bytes.count)
            }
            if operation > 3 {
                return discard(.unknownOperation(operation), start: start, count: bytes.count)
            }
            guard expected > bytes.count else { return .message(bytes) }
            state = .body(bytes, expected: expected, start: start)
            return nil
        case .body(var bytes, let expected, let start):
            state = next
            bytes.append(byte)
            guard bytes.count == expected else {
                state = .body(bytes, expected: expected, start: start)
                return nil
            }
            return .message(bytes)
        }
    }

    private func discard(_ reason: SMPRawDiscard.Reason, start: Int, count: Int) -> SMPRawDeframerOutput {
        .discarded(SMPRawDiscard(reason: reason, messageOffset: start, byteCount: count))
    }
}
