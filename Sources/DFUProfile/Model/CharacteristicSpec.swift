import DFUBytes

/// A GATT characteristic the procedure uses, by role name (e.g. `control`, `packet`).
public struct CharacteristicSpec: Sendable {
    /// A GATT property the device must declare; the raw value is how profiles write it.
    public enum Property: String, Sendable, Hashable, CaseIterable {
        /// The value can be read.
        case read
        /// The value can be written with response.
        case write
        /// The value can be written without response.
        case writeWithoutResponse = "write-without-response"
        /// The device can notify the value.
        case notify
        /// The device can indicate the value.
        case indicate
    }

    /// How the engine writes to the characteristic; the raw value is how profiles write it.
    public enum WriteType: String, Sendable, Hashable {
        /// Each write waits for the device's acknowledgement.
        case withResponse = "with-response"
        /// Writes are not acknowledged: as many as the link takes.
        case withoutResponse = "without-response"
    }

    /// How a frame is cut into ATT writes.
    public enum SegmentSize: Sendable, Hashable {
        /// ATT_MTU - 3 bytes per write.
        case mtu
        /// A fixed number of bytes per write (still capped at ATT_MTU - 3).
        case fixed(Int)
    }

    /// The role name the procedure uses (`control`, `packet`).
    public var name: String
    /// The UUID of the service it belongs to.
    public var service: BluetoothUUID
    /// The characteristic's UUID.
    public var uuid: BluetoothUUID
    /// Properties the device must declare; checked after discovery.
    package var requiredProperties: Set<Property>
    /// How writes to this characteristic are made.
    public var writeType: WriteType
    /// The framing of messages written to and notified from it (a key of `Profile.framings`),
    /// nil when one write carries exactly one message.
    public var framing: String?
    package var segmentSize: SegmentSize
    /// Writes are a whole number of this many bytes (legacy Nordic bootloaders take data in
    /// 32-bit words): the segment size is rounded down to a multiple of it.
    package var segmentMultiple = 1
    /// Whether the engine subscribes to its notifications (or indications) before the procedure.
    package var subscribe: Bool
    /// Subscribe to indications even when the characteristic can also notify (`subscribe:
    /// indications`); else notifications are preferred.
    package var prefersIndications = false
    /// At least this long between two writes to it (devices without acknowledgements that need
    /// pacing, such as Telink's OTA); nil: as fast as the link takes them.
    package var writeInterval: Duration?
    /// When true, a device without it is still usable (e.g. a buttonless-DFU characteristic only
    /// the application has); `present.<name>` tells the procedure whether it was found.
    public var optional: Bool = false
    /// The code table naming the ATT error codes (application errors, 0x80-0x9F) the device
    /// answers a write to it with (Silicon Labs' AppLoader: 0x80 CRC error...); nil: shown by
    /// number only.
    package var attErrors: String?
    /// Where it is defined in the profile.
    public var location: SourceLocation

    /// A characteristic as a profile defines it; the optional settings keep their defaults.
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
    /// The framing's name, referred to by characteristics' `framing`.
    public var name: String
    /// The header layout, the length mode and the checksum trailer.
    public var format: LengthHeaderFormat
    /// Where it is defined in the profile.
    public var location: SourceLocation

    /// The framing `name` with `format`, defined at `location`.
    public init(name: String, format: LengthHeaderFormat, location: SourceLocation) {
        self.name = name
        self.format = format
        self.location = location
    }
}

/// Named numeric codes (status codes, error codes) with messages. Codes not listed are still
/// printed by number.
public struct CodeTable: Sendable {
    /// One code's name and explanation.
    public struct Entry: Sendable {
        /// The code's name (`invalid-object`), as errors show it.
        public var name: String
        /// What the code means and what to do, when the profile says.
        public var message: String?
        /// False when the device gives this answer again however often it is asked (`retryable:
        /// false`: a version or size it refuses): the step is not retried and the update does
        /// not resume after it.
        public var retryable = true
        /// A code named `name`, explained by `message`.
        public init(name: String, message: String?, retryable: Bool = true) {
            self.name = name
            self.message = message
            self.retryable = retryable
        }
    }

    /// The table's name, referred to by `codes:` keys.
    public var name: String
    /// The codes it names, by value.
    public var entries: [UInt64: Entry]

    /// The table `name` with `entries`.
    public init(name: String, entries: [UInt64: Entry]) {
        self.name = name
        self.entries = entries
    }
}
