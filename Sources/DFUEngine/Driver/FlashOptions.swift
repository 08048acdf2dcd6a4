import DFUGATT
import DFUProfile

/// Per-run settings from the command line: profile parameter overrides (`--set NAME=VALUE`)
/// and write-type overrides per characteristic role (`--write packet=with-response`).
public struct FlashOptions: Sendable {
    /// Profile parameter overrides by name (`--set NAME=VALUE`).
    public var parameters: [String: ParameterValue]
    /// Write types by characteristic role (`--write ROLE=TYPE`), replacing the profile's.
    public var writeTypes: [String: GATTWriteType]

    /// Which advertiser to take when no address is given (filters on top of the profile's rules).
    public var selection: DeviceSelection
    /// The longest the whole attempt may take, on the transport's clock (scan, connect, every
    /// image, resumes); nil: no bound beyond each step's own timeouts.
    public var attemptTimeout: Duration?

    /// Options with these overrides (none by default).
    public init(parameters: [String: ParameterValue] = [:], writeTypes: [String: GATTWriteType] = [:],
                selection: DeviceSelection = DeviceSelection(), attemptTimeout: Duration? = nil) {
        self.parameters = parameters
        self.writeTypes = writeTypes
        self.selection = selection
        self.attemptTimeout = attemptTimeout
    }

    /// Checks the overrides against the profile: unknown names are usage errors.
    public func validate(for profile: Profile) throws(FlashError) {
        for name in parameters.keys where profile.parameters[name] == nil {
            let known = profile.parameters.keys.sorted()
            throw FlashError(kind: .usage, message: "profile '\(profile.name)' has no parameter '\(name)'"
                             + (known.isEmpty ? " (it has none)" : " (it has: \(known.joined(separator: ", ")))"))
        }
        for name in writeTypes.keys where profile.characteristic(named: name) == nil {
            throw FlashError(kind: .usage, message: "profile '\(profile.name)' has no characteristic '\(name)' "
                             + "(it has: \(profile.characteristics.map(\.name).joined(separator: ", ")))")
        }
    }

    /// `param` as profiles see it: the defaults with the overrides applied.
    func parameterRecord(for profile: Profile) -> Value {
        var record: [String: Value] = [:]
        for (name, value) in profile.parameters.merging(parameters, uniquingKeysWith: { $1 }) {
            switch value {
            case let .integer(number): record[name] = .integer(number)
            case let .text(text): record[name] = .string(text)
            }
        }
        return .record(record)
    }
}
