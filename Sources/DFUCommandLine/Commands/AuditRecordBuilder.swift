import DFUKit
import DFULedger
import Foundation

/// What `dfukit batch run --audit-key` signs each attempt's audit record with, and the facts of
/// the line every record repeats: the key, the operator, the package's images.
struct AuditRecordBuilder: Sendable {
    let key: Ed25519PrivateKey
    let operatorName: String?
    let images: [AuditRecord.Image]

    /// A builder for the plan's key (nil when the line signs nothing) and images.
    init?(plan: BatchPlan, operatorName: String?) {
        guard let key = plan.auditKey else { return nil }
        self.key = key
        self.operatorName = operatorName
        images = plan.images.map { AuditRecord.Image(name: $0.name, version: $0.version, sha256: $0.sha256.hexString) }
    }

    /// The signed record of `attempt` (made under `claim`) as the ledger stores it, with the
    /// runner's facts in `record`.
    func signed(_ attempt: Attempt, claim: Claim, from record: AttemptRecord) -> SignedAuditRecord {
        var audit = AuditRecord(address: attempt.device, profile: attempt.profile, packageSHA256: attempt.packageSHA256,
                                images: images, result: attempt.result.rawValue, attempt: attempt.attemptNumber,
                                claimID: claim.id, station: attempt.station, startedAt: attempt.startedAt,
                                endedAt: attempt.endedAt, seconds: attempt.seconds, clock: (attempt.clock ?? .wall).rawValue)
        audit.serial = attempt.serial
        audit.errorKind = attempt.errorKind
        audit.errorMessage = attempt.errorMessage
        audit.versionBefore = record.versionBefore
        switch attempt.result {
        case .succeeded: audit.versionAfter = images.last?.version
        case .skipped: audit.versionAfter = record.deviceVersion ?? images.last?.version
        case .failed, .cancelled: audit.versionAfter = nil
        }
        audit.deviceHolds = record.deviceHolds
        audit.evidence = record.evidence
        audit.link = record.link.map(Self.link)
        audit.bytes = attempt.bytes
        audit.retries = record.retries
        audit.resumes = record.resumes
        audit.operatorName = operatorName
        return SignedAuditRecord(signing: audit, with: key)
    }

    /// The granted link values as the record keeps them.
    static func link(_ grant: LinkGrant) -> AuditRecord.Link {
        var link = AuditRecord.Link(source: grant.source.rawValue)
        link.txPHY = grant.txPHY?.rawValue
        link.rxPHY = grant.rxPHY?.rawValue
        link.txOctets = grant.txOctets
        link.rxOctets = grant.rxOctets
        link.mtu = grant.mtu
        link.intervalMicroseconds = grant.interval
        link.latency = grant.latency
        link.supervisionTimeoutMilliseconds = grant.supervisionTimeout
        return link
    }
}
