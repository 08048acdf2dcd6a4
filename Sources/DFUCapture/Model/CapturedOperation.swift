/// One ATT operation seen on a connection, by who sent it. The client is the phone or DFUKit;
/// the device is the GATT server being updated.
public struct CapturedOperation: Sendable, Hashable {
    /// What was sent.
    public enum Kind: Sendable, Hashable {
        /// Client: a Write Request (`withResponse`) or Write Command of `value` to `handle`
        /// (a characteristic's value, or a descriptor such as a CCCD). A Prepare/Execute Write
        /// sequence is read as one write of the whole value.
        case write(handle: UInt16, value: [UInt8], withResponse: Bool)
        /// Client: wrote `configuration` to a Client Characteristic Configuration descriptor
        /// (1 notifications, 2 indications, 0 off): `valueHandle` is the characteristic's value
        /// handle where discovery (or the recording) tells, else nil. Read from a write to a
        /// handle known to be a CCCD; such writes are never also reported as `.write`.
        case subscribe(descriptorHandle: UInt16, valueHandle: UInt16?, configuration: UInt16)
        /// Device: the Write Response to the client's last Write Request.
        case writeAcknowledged
        /// Client: a Read Request (or Read Blob Requests, joined) of `handle`.
        case read(handle: UInt16)
        /// Device: the value the last read returned (blobs joined).
        case readValue([UInt8])
        /// Device: a Handle Value Notification, or an Indication.
        case notification(handle: UInt16, value: [UInt8], indication: Bool)
        /// Device: an Error Response to the request with opcode `request` on `handle`.
        case attError(request: UInt8, handle: UInt16, code: UInt8)
        /// Client asks for an ATT_MTU, or the device answers with its own.
        case mtuExchange(client: Int?, server: Int?)
    }

    /// When, from the capture's first record.
    public var time: Duration
    /// What was sent.
    public var kind: Kind

    /// An operation at `time`.
    public init(time: Duration, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// Sent by the client (DFUKit, the phone app) rather than the device.
    public var fromClient: Bool {
        switch kind {
        case .write, .read, .subscribe: return true
        case let .mtuExchange(client, _): return client != nil
        case .writeAcknowledged, .readValue, .notification, .attError: return false
        }
    }
}
