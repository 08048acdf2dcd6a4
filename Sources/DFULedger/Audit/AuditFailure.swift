/// One audit record that did not verify, or an attempt without one: which device and attempt,
/// where it was read (a ledger, or an exported file's line) and why.
public struct AuditFailure: Sendable, Hashable, CustomStringConvertible {
    /// Why a record failed.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The attempt is in the ledger and its audit record is not.
        case missing
        /// The signature does not match the record's bytes (the record was changed), with details.
        case badSignature(String)
        /// The record was signed by another key.
        case otherKey(String)
        /// The record, its signature or key id cannot be read, or it names another attempt.
        case malformed(String)

        /// A stable name for scripts: `missing`, `bad-signature`, `other-key`, `malformed`.
        public var name: String {
            switch self {
            case .missing: return "missing"
            case .badSignature: return "bad-signature"
            case .otherKey: return "other-key"
            case .malformed: return "malformed"
            }
        }

        public var description: String {
            switch self {
            case .missing: return "missing: the ledger has this attempt but no audit record for it"
            case let .badSignature(detail), let .otherKey(detail), let .malformed(detail): return "\(name): \(detail)"
            }
        }
    }

    /// The device's address, when known.
    public var device: String?
    /// The attempt's number at the device, when known.
    public var attempt: Int?
    /// The station that made it, when known.
    public var station: String?
    /// The exported file's line (1-based), when read from a file.
    public var line: Int?
    /// Why it failed.
    public var reason: Reason

    /// A failure of the record of `attempt` at `device` (read on `line` of a file, when it was).
    public init(device: String?, attempt: Int?, station: String?, line: Int? = nil, reason: Reason) {
        self.device = device
        self.attempt = attempt
        self.station = station
        self.line = line
        self.reason = reason
    }

    public var description: String {
        var place: [String] = []
        if let line { place.append("line \(line)") }
        place.append("device \(device ?? "?")")
        place.append("attempt \(attempt.map(String.init) ?? "?")")
        if let station { place.append("station \(station)") }
        return place.joined(separator: ", ") + ": " + reason.description
    }
}
