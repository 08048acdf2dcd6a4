import DFUBytes

/// One field of a binary message, in wire order.
public struct FieldSpec: Sendable {
    /// How a field is laid out on the wire.
    public enum FieldType: Sendable, Hashable {
        /// Unsigned integer of 1, 2, 3, 4 or 8 bytes.
        case unsigned(width: Int, endianness: Endianness)
        /// A byte string: `count` bytes when given, else the rest of the message.
        case bytes(count: Int?)
        /// A CBOR item taking the rest of the message (MCUmgr SMP bodies). Requests give its
        /// map entries in `cborMap`; received ones decode to a record.
        case cbor
    }

    /// One entry of a request's CBOR map: `key: value`, left out unless `when` holds.
    package struct CBOREntry: Sendable {
        public var key: String
        public var value: Expression
        public var when: Expression?

        public init(key: String, value: Expression, when: Expression?) {
            self.key = key
            self.value = value
            self.when = when
        }
    }

    /// Name used by expressions (`start.status`); nil for anonymous constants.
    public var name: String?
    /// Its wire layout.
    public var type: FieldType
    /// When encoding: the value to write. When decoding: a constant the field must hold for the
    /// message to match (e.g. a response opcode), or nil for a captured field.
    public var value: Expression?
    /// For a `cbor` field of a request: its map, in wire order.
    package var cborMap: [CBOREntry]?
    /// Where it is written in the profile.
    public var location: SourceLocation

    /// A field; `value` is written when encoding and required when decoding.
    public init(name: String?, type: FieldType, value: Expression?, location: SourceLocation) {
        self.name = name
        self.type = type
        self.value = value
        self.location = location
    }
}

/// The layout of a message: fields in order.
public struct MessageSpec: Sendable {
    /// The command's or notification's name.
    public var name: String
    /// The characteristic it is written to (commands) or notified from (responses).
    public var characteristic: String
    /// Its fields in wire order.
    public var fields: [FieldSpec]
    /// For notifications waited for by an `await` step: how they report success.
    public var status: StatusSpec?
    /// For notifications (`watch: true`): read whenever they arrive while the procedure runs,
    /// not only by an `await`; a failing `status` ends the step under way with it (a result the
    /// device sends before it drops the link).
    public var watched = false
    /// Where it is defined in the profile.
    public var location: SourceLocation

    /// A message of `fields`, written to or notified from `characteristic`.
    public init(name: String, characteristic: String, fields: [FieldSpec], location: SourceLocation) {
        self.name = name
        self.characteristic = characteristic
        self.fields = fields
        self.location = location
    }
}

/// How a response reports success or failure. A response whose status is a failure may end
/// right after the status field (and its detail byte): the fields after it are optional then.
public struct StatusSpec: Sendable {
    /// A second code that refines a first one (Nordic's "extended error" follows result 0x0B).
    public struct Detail: Sendable {
        /// The first status code this detail refines.
        public var when: UInt64
        /// The field holding it; nil means the byte right after the status field (error
        /// responses often carry only that byte where a success carries its parameters).
        public var field: String?
        /// The code table naming the detail codes.
        public var codes: String?
        /// A detail read when the status is `when`.
        public init(when: UInt64, field: String?, codes: String?) {
            self.when = when
            self.field = field
            self.codes = codes
        }
    }

    /// The response field holding the status, or a path into a decoded CBOR field
    /// (`body.rc`); a status the response leaves out counts as success.
    public var field: String
    /// The status codes that mean success.
    public var success: [UInt64]
    /// A key of `Profile.codeTables` naming the codes.
    public var codes: String?
    /// A second code that refines a failure, when the device sends one.
    public var detail: Detail?
    /// Where the status is defined in the profile.
    public var location: SourceLocation

    /// A status read from `field`, successful when it is one of `success`.
    public init(field: String, success: [UInt64], codes: String?, detail: Detail?, location: SourceLocation) {
        self.field = field
        self.success = success
        self.codes = codes
        self.detail = detail
        self.location = location
    }
}

/// The response a command waits for: its layout, how it is told apart from other messages
/// (constant fields in `message` plus `match` conditions that may refer to the request, e.g.
/// `seq == request.seq`), and its status.
public struct ResponseSpec: Sendable {
    /// The response's layout.
    public var message: MessageSpec
    /// Extra conditions over the response's fields (`response.x`) and the request's (`request.x`).
    public var match: [Expression]
    /// How it reports success; nil when it does not.
    public var status: StatusSpec?
    /// Further statuses checked after `status` (SMP v2's `err.rc` besides v1's `rc`).
    package var moreStatuses: [StatusSpec] = []

    /// A response laid out as `message`, told apart by `match`, with `status`.
    public init(message: MessageSpec, match: [Expression], status: StatusSpec?) {
        self.message = message
        self.match = match
        self.status = status
    }
}

/// A command: a request message and, unless it is fire-and-forget, the response it waits for.
public struct CommandSpec: Sendable {
    /// The command's name, as `send` steps and `dfukit exec` refer to it.
    public var name: String
    /// The message written to the device.
    public var request: MessageSpec
    /// The answer it waits for; nil for fire-and-forget commands.
    public var response: ResponseSpec?
    /// Overrides `ProfileDefaults.timeout`.
    public var timeout: Duration?
    /// The device reboots after this command (its answer, if any, goes out first).
    public var reboots: RebootSpec?
    /// Sending it changes what the device holds or runs (it erases, starts an update, writes,
    /// activates, resets): `dfukit exec` sends it alone only with `--yes`.
    public var changesDevice = false
    /// Where it is defined in the profile.
    public var location: SourceLocation

    /// A command; `timeout` nil uses the profile's default.
    public init(name: String, request: MessageSpec, response: ResponseSpec?, timeout: Duration?,
                location: SourceLocation) {
        self.name = name
        self.request = request
        self.response = response
        self.timeout = timeout
        self.location = location
    }
}
