import DFUBytes

/// A GATT characteristic the procedure uses, by role name (e.g. `control`, `packet`).
public struct CharacteristicSpec: Sendable {
    public enum Property: String, Sendable, Hashable, CaseIterable {
        case read
        case write
        case writeWithoutResponse = "write-without-response"
        case notify
        case indicate
    }

    public enum WriteType: String, Sendable, Hashable {
        case withResponse = "with-response"
        case withoutResponse = "without-response"
    }

    /// How a frame is cut into ATT writes.
    public enum SegmentSize: Sendable, Hashable {
        /// ATT_MTU - 3 bytes per write.
        case mtu
        /// A fixed number of bytes per write (still capped at ATT_MTU - 3).
        case fixed(Int)
    }

    public var name: String
    public var service: BluetoothUUID
    public var uuid: BluetoothUUID
    /// Properties the device must declare; checked after discovery.
    public var requiredProperties: Set<Property>
    /// How writes to this characteristic are made.
    public var writeType: WriteType
    /// The framing of messages written to and notified from it (a key of `Profile.framings`),
    /// nil when one write carries exactly one message.
    public var framing: String?
    public var segmentSize: SegmentSize
    /// Writes are a whole number of this many bytes (legacy Nordic bootloaders take data in
    /// 32-bit words): the segment size is rounded down to a multiple of it.
    public var segmentMultiple = 1
    /// Whether the engine subscribes to its notifications (or indications) before the procedure.
    public var subscribe: Bool
    /// Subscribe to indications even when the characteristic can also notify (`subscribe:
    /// indications`); else notifications are preferred.
    public var prefersIndications = false
    /// At least this long between two writes to it (devices without acknowledgements that need
    /// pacing, such as Telink's OTA); nil: as fast as the link takes them.
    public var writeInterval: Duration?
    /// When true, a device without it is still usable (e.g. a buttonless-DFU characteristic only
    /// the application has); `present.<name>` tells the procedure whether it was found.
    public var optional: Bool = false
    /// The code table naming the ATT error codes (application errors, 0x80-0x9F) the device
    /// answers a write to it with (Silicon Labs' AppLoader: 0x80 CRC error...); nil: shown by
    /// number only.
    public var attErrors: String?
    public var location: SourceLocation

    public init(name: String, service: BluetoothUUID, uuid: BluetoothUUID, requiredProperties: Set<Property>,
                writeType: WriteType, framing: String?, segmentSize: SegmentSize, subscribe: Bool,
                location: SourceLocation) {
        self.name = name
        self.service = service
        self.uuid = uuid
        self.requiredProperties = requiredProperties
        self.writeType = writeType
        self.framing = framing
        self.segmentSize = segmentSize
        self.subscribe = subscribe
        self.location = location
    }
}

/// A named length-header framing: its layout, whether the length is inserted into messages or
/// laid over their own header bytes, and its checksum trailer, if any (all in `format`).
public struct FramingSpec: Sendable {
    public var name: String
    public var format: LengthHeaderFormat
    public var location: SourceLocation

    public init(name: String, format: LengthHeaderFormat, location: SourceLocation) {
        self.name = name
        self.format = format
        self.location = location
    }
}

/// Named numeric codes (status codes, error codes) with messages. Codes not listed are still
/// printed by number.
public struct CodeTable: Sendable {
    public struct Entry: Sendable {
        public var name: String
        public var message: String?
        public init(name: String, message: String?) {
            self.name = name
            self.message = message
        }
    }

    public var name: String
    public var entries: [UInt64: Entry]

    public init(name: String, entries: [UInt64: Entry]) {
        self.name = name
        self.entries = entries
    }
}
