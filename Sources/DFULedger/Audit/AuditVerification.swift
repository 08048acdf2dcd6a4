import DFUBytes

/// The outcome of checking audit records with a station's public key
/// (`dfukit station audit verify`): how many were checked and each failure.
public struct AuditVerification: Sendable {
    /// Records (or, from a ledger, attempts) checked.
    public var checked: Int
    /// Every record that did not verify and every attempt without one, in order.
    public var failures: [AuditFailure]

    /// Records that verified.
    public var verified: Int { checked - failures.count }
    /// True when every record verified and none was missing.
    public var allVerified: Bool { failures.isEmpty }

    /// Checks every attempt of a ledger: each must have a record, signed by `key`, that names
    /// that attempt (device and attempt number).
    public init(entries: [AuditEntry], key: Ed25519PublicKey) {
        checked = entries.count
        failures = entries.compactMap { entry in
            func failure(_ reason: AuditFailure.Reason) -> AuditFailure {
                AuditFailure(device: entry.device, attempt: entry.attempt, station: entry.station, reason: reason)
            }
            guard let record = entry.record else { return failure(.missing) }
            if let problem = record.problem(verifyingWith: key) { return failure(problem) }
            let subject = record.subject
            guard subject?.address == entry.device, subject?.attempt == entry.attempt else {
                return failure(.malformed("the record names device \(subject?.address ?? "?") attempt "
                                          + "\(subject?.attempt.map(String.init) ?? "?"), not this attempt"))
            }
            return nil
        }
    }

    /// Checks the lines of an exported file (empty lines are skipped): each must read as an
    /// exported record signed by `key`.
    public init(lines: [String], key: Ed25519PublicKey) {
        var checked = 0
        var failures: [AuditFailure] = []
        for (index, line) in lines.enumerated() where !line.allSatisfy(\.isWhitespace) {
            checked += 1
            let record: SignedAuditRecord
            do {
                record = try SignedAuditRecord(jsonLine: line)
            } catch {
                failures.append(AuditFailure(device: nil, attempt: nil, station: nil, line: index + 1,
                                             reason: .malformed(error.message)))
                continue
            }
            if let problem = record.problem(verifyingWith: key) {
                let subject = record.subject
                failures.append(AuditFailure(device: subject?.address, attempt: subject?.attempt, station: subject?.station,
                                             line: index + 1, reason: problem))
            }
        }
        self.checked = checked
        self.failures = failures
    }
}
