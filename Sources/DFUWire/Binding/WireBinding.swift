import DFUGATT

/// How a profile's characteristics are carried on a wire that has none: each write to a
/// characteristic becomes one framed message (after a prefix, e.g. Nordic's serial Object Write
/// opcode `08` before what BLE writes to the DFU Packet characteristic), and each message the
/// device sends becomes a notification of one characteristic.
///
/// Built from a profile's `links:` entry; the engine above sees a GATT link with the profile's
/// own characteristics and runs the same procedure as over BLE.
public struct WireBinding: Sendable {
    /// The link medium this binding is for: `.serial` or `.udp`.
    public var medium: LinkMedium
    /// How messages are framed on the wire.
    public var framing: any MessageFraming
    /// The characteristics, as the profile declares them, with the handles this link gives them.
    public var services: [GATTService]
    /// What each writable characteristic's writes become, by value handle.
    public var writes: [UInt16: WireWrite]
    /// The characteristic whose notifications the device's messages become.
    public var responseHandle: UInt16
    /// The largest message the framing carries: the link's MTU is this (or the device's buffer,
    /// when smaller) plus 3, so that a profile's `link.mtu - 3` is the message size, as over BLE.
    public var maxMessage: Int { framing.largestMessage }
    /// How long a stream may pause inside a message before the receiver drops it (a raw UART
    /// receiver's input timeout); nil when the framing delimits messages itself.
    public var idleTimeout: Duration?
    /// The largest message the device takes (its receive buffer), when known: a longer one is
    /// refused before it is sent.
    public var deviceBuffer: Int?

    /// A binding from its parts.
    public init(medium: LinkMedium, framing: any MessageFraming, services: [GATTService],
                writes: [UInt16: WireWrite], responseHandle: UInt16,
                idleTimeout: Duration? = nil, deviceBuffer: Int? = nil) {
        self.medium = medium
        self.framing = framing
        self.services = services
        self.writes = writes
        self.responseHandle = responseHandle
        self.idleTimeout = idleTimeout
        self.deviceBuffer = deviceBuffer
    }

    /// The largest message one write may carry: the framing's limit, or the device's buffer.
    public var largestMessage: Int { min(maxMessage, deviceBuffer ?? maxMessage) }
    /// The largest value one write may carry whatever characteristic it goes to: the largest
    /// message less the longest prefix.
    public var largestValue: Int { max(1, largestMessage - (writes.values.map(\.prefix.count).max() ?? 0)) }

    /// The characteristic with `handle`, when the binding has it.
    public func characteristic(handle: UInt16) -> GATTCharacteristic? {
        services.lazy.flatMap(\.characteristics).first { $0.valueHandle == handle }
    }
}

/// What a write to one characteristic becomes on a wire.
public struct WireWrite: Sendable, Equatable {
    /// Bytes put before the written value in the message (empty for most).
    public var prefix: [UInt8]

    /// A write carried after `prefix`.
    public init(prefix: [UInt8] = []) {
        self.prefix = prefix
    }
}
