import Foundation

/// The operation names that go into `LedgerError.operation`, shared by both databases.
enum LedgerOperation {
    static func claim(_ device: String, _ packageSHA256: String) -> String {
        "claim device \(device) for package \(short(packageSHA256))"
    }

    static func heartbeat(_ claim: Claim) -> String {
        "extend the claim on device \(claim.device) for package \(short(claim.packageSHA256))"
    }

    static func release(_ claim: Claim) -> String {
        "release device \(claim.device) for package \(short(claim.packageSHA256))"
    }

    static func record(_ attempt: Attempt) -> String {
        "record attempt \(attempt.attemptNumber) on device \(attempt.device) (\(attempt.result.rawValue))"
    }

    static func isDone(_ device: String, _ packageSHA256: String) -> String {
        "look up device \(device) for package \(short(packageSHA256))"
    }

    static func releaseEarlier(_ station: String) -> String {
        "release the claims station \(station) held before it restarted"
    }

    static func recordLineEvent(_ event: LineEvent) -> String {
        switch event.kind {
        case .halted, .resumed: "record that line \(event.line ?? "?") \(event.kind.rawValue)"
        case .quarantined, .released: "record that device \(event.device ?? "?") was \(event.kind.rawValue)"
        }
    }

    static let readLineEvents = "read the line's halts, resumes and quarantines"
    static let readAttempts = "read attempts"
    static let readAuditRecords = "read the audit records"
    static let createSchema = "create the ledger's tables"

    /// The first 12 hex digits of a digest, as reports show it.
    static func short(_ packageSHA256: String) -> String {
        packageSHA256.count > 12 ? String(packageSHA256.prefix(12)) + "…" : packageSHA256
    }

    /// The checks every claim and attempt gets before anything is written.
    static func validate(device: String, packageSHA256: String, station: String, ledger: String,
                         operation: String) throws(LedgerError) {
        try requireText([("device address", device), ("package sha256", packageSHA256), ("station name", station)],
                        ledger: ledger, operation: operation)
    }

    /// Refuses an empty (or blank) value of any of `fields` (name, value).
    static func requireText(_ fields: [(String, String)], ledger: String, operation: String) throws(LedgerError) {
        for (name, value) in fields where value.trimmingCharacters(in: .whitespaces).isEmpty {
            throw LedgerError(.invalidArgument, ledger: ledger, operation: operation, message: "the \(name) is empty")
        }
    }

    /// Why a heartbeat found no active claim, from the current claim row (state, station).
    static func lostMessage(state: String?, station: String?) -> String {
        switch state {
        case "done": return "the device was marked done meanwhile"
        case "active": return "station \(station ?? "?") took the device over after this claim's lease ran out"
        case "released": return "the claim was released"
        default: return "no claim is recorded for the device"
        }
    }
}

extension LedgerOperation {
    static func announce(_ status: StationStatus) -> String {
        "announce station \(status.station) (\(status.state.rawValue))"
    }

    static func publishLive(_ device: LiveDevice) -> String {
        "publish device \(device.device)'s progress (\(device.phase))"
    }

    static func clearLive(_ device: String) -> String {
        "clear device \(device)'s progress"
    }

    static let readStations = "read the stations"
    static let readLive = "read the devices in flight"
}
