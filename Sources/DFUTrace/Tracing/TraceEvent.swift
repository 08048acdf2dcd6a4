import DFUGATT

/// One thing seen on a traced link, at a time of the link's clock.
public struct TraceEvent: Sendable {
    /// Which way a value went; the raw value is what `--json` prints.
    public enum Direction: String, Sendable {
        /// Written by DFUKit to the device.
        case written = "write"
        /// Notified (or indicated) by the device.
        case notified = "notify"
    }

    /// One ATT write or notification, its exact bytes.
    public struct Value: Sendable {
        /// Written by DFUKit or notified by the device.
        public var direction: Direction
        /// The profile's name of the characteristic, or `handle 0x000C` for one it does not name.
        public var characteristic: String
        /// For writes: with or without response.
        public var writeType: GATTWriteType?
        /// The exact bytes of the ATT value.
        public var bytes: [UInt8]
    }

    /// A message reassembled from one or more values (a length-only header stripped), read by
    /// the profile.
    public struct Message: Sendable {
        /// Written by DFUKit or notified by the device.
        public var direction: Direction
        /// The profile's name of the characteristic, or `handle 0x000C` for one it does not name.
        public var characteristic: String
        /// The message's bytes, reassembled, without a length-only header.
        public var bytes: [UInt8]
        /// How many ATT values it took.
        public var values: Int
        /// What the profile makes of it.
        public var reading: MessageReading
    }

    /// What was seen.
    public enum Kind: Sendable {
        /// DFUKit starts connecting to the device at this address.
        case connecting(DeviceAddress)
        /// Connected, with the negotiated ATT_MTU.
        case connected(DeviceAddress, mtu: Int)
        /// Subscribed to the characteristic's notifications, or its indications.
        case subscribed(characteristic: String, indications: Bool)
        /// One ATT write or notification.
        case value(Value)
        /// A whole message of the profile, read from one or more values.
        case message(Message)
        /// Values that break the characteristic's framing (reassembly starts over).
        case garbled(characteristic: String, reason: String)
        /// The device dropped the link (`byDevice`), or DFUKit did.
        case disconnected(byDevice: Bool, reason: String)
        /// What the engine reports between messages: phases, retries, reboots, resumes.
        case note(String)
        /// Bytes on a serial line or UDP, exactly as they went, framing included (the frames
        /// that carry the messages).
        case wire(direction: Direction, bytes: [UInt8])
    }

    /// On the link's clock (virtual on `sim:` and the generic device).
    public var time: Duration
    /// What was seen.
    public var kind: Kind

    /// An event seen at `time` on the link's clock.
    public init(time: Duration, kind: Kind) {
        self.time = time
        self.kind = kind
    }
}
