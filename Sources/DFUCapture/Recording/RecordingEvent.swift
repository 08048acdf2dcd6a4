import DFUGATT

/// One line of a recording after its header and blobs: something that went over the link, or
/// happened to it, at a time on the link's clock from the recording's start.
public struct RecordingEvent: Sendable, Hashable {
    /// Which way a message or wire bytes went; the raw value is the file's spelling.
    public enum Direction: String, Sendable, Hashable {
        /// Written by DFUKit to the device.
        case write
        /// Notified (or indicated, or sent on the wire) by the device.
        case notify
    }

    /// What the client asked of a characteristic's value updates; the raw value is the file's.
    public enum Updates: String, Sendable, Hashable {
        /// Notifications on (CCCD 0x0001).
        case notifications
        /// Indications on (CCCD 0x0002).
        case indications
        /// Off (CCCD 0x0000).
        case off

        /// The Client Characteristic Configuration value.
        public var configuration: UInt16 {
            switch self {
            case .notifications: return 1
            case .indications: return 2
            case .off: return 0
            }
        }
    }

    /// What was seen.
    public enum Kind: Sendable, Hashable {
        /// DFUKit starts connecting to the device at this address.
        case connecting(DeviceAddress)
        /// Connected: the ATT_MTU agreed, what carries the link, and the largest message the
        /// device takes where the link knows it (a serial device's receive buffer).
        case connected(DeviceAddress, mtu: Int, medium: LinkMedium, buffer: Int? = nil)
        /// What the stack granted the connection (PHY, data length, interval...), read after
        /// discovery.
        case link(LinkGrant)
        /// The services and characteristics DFUKit found; `names` holds the profile's name of
        /// each characteristic it knows, by value handle.
        case services([GATTService], names: [UInt16: String])
        /// An advertisement heard.
        case advertisement(Advertisement)
        /// DFUKit wrote `value` to the characteristic at `handle`.
        case write(handle: UInt16, characteristic: String?, withResponse: Bool, value: [UInt8])
        /// The device acknowledged the write (with response), or the link took it (without).
        case writeAcknowledged(handle: UInt16)
        /// The write failed: an ATT error code from the device, or the link's error.
        case writeFailed(handle: UInt16, attError: UInt8?, error: String)
        /// DFUKit read the characteristic at `handle`.
        case read(handle: UInt16, characteristic: String?)
        /// The value the read returned.
        case readValue(handle: UInt16, value: [UInt8])
        /// The read failed: an ATT error code from the device, or the link's error.
        case readFailed(handle: UInt16, attError: UInt8?, error: String)
        /// DFUKit subscribed to (or stopped) the characteristic's value updates.
        case subscribe(handle: UInt16, characteristic: String?, updates: Updates)
        /// The device notified (or indicated) `value`.
        case notification(handle: UInt16, characteristic: String?, indication: Bool, value: [UInt8])
        /// A message of the profile, reassembled from values and read by it (informational: the
        /// writes and notifications are what went over the link).
        case message(RecordedMessage)
        /// Bytes on a serial line or UDP exactly as they went, framing included.
        case wire(direction: Direction, bytes: [UInt8])
        /// What the engine reported: a phase, a retry, a reboot, a resume.
        case note(String)
        /// The device dropped the link (`byDevice`), or DFUKit closed it.
        case disconnected(byDevice: Bool, reason: String)
    }

    /// From the recording's start, on the link's clock (virtual on `sim:`).
    public var time: Duration
    /// What was seen.
    public var kind: Kind

    /// An event at `time`.
    public init(time: Duration, kind: Kind) {
        self.time = time
        self.kind = kind
    }
}

/// A message of the profile as a recording keeps it: which way, on which characteristic, its
/// bytes, and what the profile made of them, as text.
public struct RecordedMessage: Sendable, Hashable {
    /// Written by DFUKit or notified by the device.
    public var direction: RecordingEvent.Direction
    /// The profile's name of the characteristic, or `handle 0x000C`.
    public var characteristic: String
    /// The message's bytes, reassembled, without a length-only header.
    public var bytes: [UInt8]
    /// How many ATT values it took.
    public var values: Int
    /// The command or notification name, when the profile read it.
    public var name: String?
    /// `request`, `response` or `notification`, when the profile read it.
    public var role: String?
    /// The named fields as text (integers in decimal, bytes in hex, or "4096 bytes" when longer
    /// than 64, records and lists as JSON), in wire order as written; a reader gets them by
    /// name order.
    public var fields: [Field]
    /// What its status field says ("ok", "failed: bad-state (0x02)").
    public var status: String?
    /// Why no message of the profile fits, when none does.
    public var unknown: String?
    /// Values that break the characteristic's framing: why (no bytes then).
    public var garbled: String?

    /// One named field.
    public struct Field: Sendable, Hashable {
        /// The field's name in the profile.
        public var name: String
        /// Its value as text.
        public var value: String

        /// A field `name` = `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A message; what the profile made of it is added by setting the other members.
    public init(direction: RecordingEvent.Direction, characteristic: String, bytes: [UInt8], values: Int,
                name: String? = nil, role: String? = nil, fields: [Field] = [], status: String? = nil,
                unknown: String? = nil, garbled: String? = nil) {
        self.direction = direction
        self.characteristic = characteristic
        self.bytes = bytes
        self.values = values
        self.name = name
        self.role = role
        self.fields = fields
        self.status = status
        self.unknown = unknown
        self.garbled = garbled
    }
}
