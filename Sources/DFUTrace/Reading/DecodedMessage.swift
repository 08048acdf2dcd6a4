import DFUEngine

/// A message read by the profile: which command's request or response, or which notification,
/// and its named fields.
public struct DecodedMessage: Sendable {
    /// Which part of the profile the bytes were read as.
    public enum Kind: String, Sendable {
        /// A command's request, written by DFUKit.
        case request
        /// A command's response, from the device.
        case response
        /// One of the profile's `notifications`, from the device.
        case notification
    }

    /// One named field of the message and its value.
    public struct Field: Sendable {
        /// The field's name in the profile.
        public var name: String
        /// The value read from the message's bytes.
        public var value: Value
    }

    /// The command or notification name.
    public var name: String
    /// Request, response or notification.
    public var kind: Kind
    /// Other commands whose requests the same bytes fit as well (the bytes cannot tell them apart).
    public var alternatives: [String] = []
    /// Named fields, in wire order.
    public var fields: [Field]
    /// What its status field says, by the profile's codes: "ok", "failed: bad-state (0x02)".
    public var status: String?
    /// A response that came while no request of its command waited for it.
    public var unsolicited = false
    /// What in it the profile does not explain although the message was recognised: a
    /// checksum field that does not verify ("field 'crc' holds 0x1234; the message computes 0x5678").
    public var problems: [String] = []
}

/// What an observer made of one message.
public enum MessageReading: Sendable {
    /// A message of the profile: its name and fields.
    case decoded(DecodedMessage)
    /// No message of the profile fits: why (the closest candidate's mismatch).
    case unknown(String)
    /// Written to a characteristic no command of the profile is written to: the data of a
    /// `stream` step.
    case raw
}
