import DFUBytes

/// A device protocol described as data: which devices it applies to, their GATT layout, the
/// framing of each characteristic, the commands and responses, and the update procedure.
///
/// The model carries no protocol-specific notions: the vendor control point, Nordic Secure DFU,
/// Nordic legacy DFU and MCUmgr SMP are all written with the same few ideas (characteristics,
/// framings, messages made of typed fields, steps over generic primitives, expressions).
public struct Profile: Sendable {
    /// The profile's name (`name:`), as `--profile` and reports show it.
    public var name: String
    /// One line on what devices it is for (`summary:`).
    public var summary: String?
    /// The file it was read from (for diagnostics).
    public var path: String
    /// Which advertising devices it applies to.
    public var match: MatchRules
    package var defaults: ProfileDefaults
    /// The characteristics the procedure uses, in the order written.
    public var characteristics: [CharacteristicSpec]
    package var framings: [String: FramingSpec]
    package var codeTables: [String: CodeTable]
    /// The commands by name.
    public var commands: [String: CommandSpec]
    /// Unsolicited messages (e.g. packet receipt notifications) a transfer may wait for.
    public var notifications: [String: MessageSpec]
    /// What to do when the link drops mid-procedure.
    public var resume: ResumePolicy
    /// The update procedure, run once per image of the package (with `image` bound).
    public var procedure: [Step]
    /// Named settings with defaults, visible as `param.<name>`; `dfukit flash --set NAME=VALUE`
    /// overrides them (e.g. Nordic's packet receipt notification interval).
    public var parameters: [String: ParameterValue] = [:]
    /// The values or range a parameter is limited to, for those the profile limits
    /// (`NAME: { default: D, values: [...] }`, `min:`, `max:`); checked with the parameter's type.
    public var parameterRules: [String: ParameterRule] = [:]
    /// A PEM public key (a path relative to the profile file) that every package flashed
    /// with this profile must be signed with; checked before any byte goes out, as `--key`.
    public var signingKey: String?
    /// The package kinds this profile flashes (`packages:`, names of `PackageKind`); empty when
    /// the profile does not say, and then any kind is sent.
    public var packageKinds: [String] = []
    /// The link security the device requires before its DFU service answers: `low` (none),
    /// `medium` (encrypted, Just Works pairing allowed), `high` (authenticated), `fips` (LE
    /// Secure Connections). Transports that can ask for it (BlueZ) do; nil: no requirement.
    public var security: String?
    /// The profile language version the file was written for (`version:`); only 1 exists.
    public var version: Int = 1
    /// How long this device takes to reboot (`reboot:`), for commands that reboot it.
    public var reboot = RebootTiming()
    /// How the profile's messages are carried over a serial line or UDP (`links:`); a link kind
    /// not listed is refused for the profile.
    public var links: [WireLinkKind: WireLinkSpec] = [:]
    /// The members of `image` the profile's expressions use (`init_packet`, `hash`, ...), each
    /// with the first place it is written: what a package must provide to be flashed with it.
    package var imageMembersUsed: [String: SourceLocation] = [:]

    /// A profile made of its parts; the loader builds one from a file and checks that the parts refer
    /// to each other correctly, which this initializer does not.
    public init(name: String, summary: String?, path: String, match: MatchRules, defaults: ProfileDefaults,
                characteristics: [CharacteristicSpec], framings: [String: FramingSpec],
                codeTables: [String: CodeTable], commands: [String: CommandSpec],
                notifications: [String: MessageSpec], resume: ResumePolicy, procedure: [Step]) {
        self.name = name
        self.summary = summary
        self.path = path
        self.match = match
        self.defaults = defaults
        self.characteristics = characteristics
        self.framings = framings
        self.codeTables = codeTables
        self.commands = commands
        self.notifications = notifications
        self.resume = resume
        self.procedure = procedure
    }

    /// The characteristic with role `name`, or nil.
    public func characteristic(named name: String) -> CharacteristicSpec? {
        characteristics.first { $0.name == name }
    }
}

/// Which advertising devices a profile applies to. Every rule given must hold. Rules with none
/// given (`isEmpty`) cannot tell the profile's devices from any other advertiser: such a
/// profile matches no device in a scan and needs the device's address.
public struct MatchRules: Sendable {
    /// A glob (`*`, `?`) over the advertised local name.
    package var namePattern: String?
    /// Every one of these must be advertised.
    public var services: [BluetoothUUID]
    /// Manufacturer specific data (AD type 0xFF) the device must advertise, when given.
    public var manufacturer: ManufacturerMatch?

    /// Rules that match a name glob (nil: any name), require every one of `services` and,
    /// when given, manufacturer data.
    public init(namePattern: String?, services: [BluetoothUUID], manufacturer: ManufacturerMatch? = nil) {
        self.namePattern = namePattern
        self.services = services
        self.manufacturer = manufacturer
    }

    /// No rule at all: every advertiser would match.
    public var isEmpty: Bool { namePattern == nil && services.isEmpty && manufacturer == nil }
}

/// `match.manufacturer` / `match.manufacturer-data`: manufacturer specific data (AD type 0xFF)
/// from this company whose data (after the company identifier) starts with `dataPrefix`.
public struct ManufacturerMatch: Sendable, Equatable {
    /// The Bluetooth SIG company identifier (Assigned Numbers), e.g. 0x02FF for Silicon Labs.
    public var companyID: UInt16
    /// The bytes the data must start with (empty: any data).
    public var dataPrefix: [UInt8]

    /// Data from `companyID` starting with `dataPrefix`.
    public init(companyID: UInt16, dataPrefix: [UInt8] = []) {
        self.companyID = companyID
        self.dataPrefix = dataPrefix
    }
}

/// What commands and fields use when they do not say (`defaults:`).
public struct ProfileDefaults: Sendable {
    /// Byte order of integer fields that do not name one.
    public var endianness: Endianness
    /// How long to wait for a response when a command does not say.
    public var timeout: Duration
    /// How many times a command is sent again after a timeout when it does not say.
    public var retries: Int

    /// Defaults: little-endian fields, a 5 s timeout, no retries unless given.
    public init(endianness: Endianness = .little, timeout: Duration = .seconds(5), retries: Int = 0) {
        self.endianness = endianness
        self.timeout = timeout
        self.retries = retries
    }
}

/// After a disconnect: reconnect and run the procedure again from the top (procedures ask the
/// device where it stopped, so running again resumes), at most `attempts` times.
public struct ResumePolicy: Sendable {
    /// How many times the procedure may run again after a lost link (0: never).
    public var attempts: Int
    package var reconnectTimeout: Duration

    /// A policy of `attempts` resumes, each waiting up to `reconnectTimeout` for the device.
    public init(attempts: Int = 0, reconnectTimeout: Duration = .seconds(10)) {
        self.attempts = attempts
        self.reconnectTimeout = reconnectTimeout
    }
}
