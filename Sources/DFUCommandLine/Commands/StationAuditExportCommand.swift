import DFUKit
import DFULedger
import Foundation

/// `dfukit station audit export --ledger URL [--station NAME] [--since TIME]`: the audit records
/// as JSON Lines.
struct StationAuditExportCommand: Command {
    static let name = "station audit export"
    static let summary = "Print the ledger's signed audit records as JSON Lines, one attempt per line."
    static let usage = "dfukit station audit export --ledger URL [--station NAME] [--since TIME]"
    static let options: [OptionSpec] = [
        OptionSpec("--ledger", value: "URL", help: "sqlite:PATH or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"),
        OptionSpec("--station", value: "NAME", help: "only attempts made by this station"),
        OptionSpec("--since", value: "TIME", help: "only attempts started at or after TIME (2026-12-01 or 2026-12-01T08:00:00Z)"),
    ]
    static let discussion = """
        Each line is {"record":{...},"signature":"BASE64","key_id":"HEX"}: the record is the exact
        signed bytes (JSON, sorted keys, no whitespace, "format":"dfukit-audit","version":1), the
        signature is Ed25519 over them, the key id the hex SHA-256 of the signing public key. A
        record holds the device's address (and serial or hardware id when read), the package's and
        images' hashes, the version before and after, what the device holds and what proved it, the
        link, retries and resumes, the station, the operator and the times. Attempts without a record
        (a line run without --audit-key) are counted on standard error. The ledger is only read.
        Exit: 0 printed, 64 usage, 65 not a DFUKit ledger, 74 the ledger cannot be opened.
        """

    let ledgerURL: LedgerURL
    let filter: AttemptFilter

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'", command: command)
        }
        ledgerURL = try Self.ledgerURL(try arguments.requiredValue("--ledger"), command: command)
        var since: Date?
        if let text = arguments.value("--since") {
            guard let date = Self.time(text) else {
                throw UsageError("--since '\(text)' is not a time such as 2026-12-01 or 2026-12-01T08:00:00Z", command: command)
            }
            since = date
        }
        filter = AttemptFilter(station: arguments.value("--station"), since: since)
    }

    /// The `--ledger` text as a ledger URL, or a usage error.
    static func ledgerURL(_ text: String, command: String) throws(UsageError) -> LedgerURL {
        do {
            return try LedgerURL(parsing: text)
        } catch {
            throw UsageError(error.message, command: command)
        }
    }

    /// An ISO 8601 time (`2026-12-01T08:00:00Z`, fractions and offsets allowed) or a UTC date.
    static func time(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: text)
    }

    /// The ledger's attempts and their records, or the exit status of why they cannot be read.
    static func entries(_ url: LedgerURL, filter: AttemptFilter, console: any Console) async -> Result<[AuditEntry], ExitStatus> {
        do {
            let ledger = try await url.open(LedgerOptions(access: .existing))
            let entries = try await ledger.auditEntries(filter)
            await ledger.close()
            return .success(entries)
        } catch {
            console.error("error: \(error)")
            return .failure(ExitStatus(code: error.kind == .notALedger ? ExitCode.dataError : ExitCode.ioError))
        }
    }

    func run(_ console: any Console) async -> Int32 {
        let entries: [AuditEntry]
        switch await Self.entries(ledgerURL, filter: filter, console: console) {
        case let .success(found): entries = found
        case let .failure(status): return status.code
        }
        var unsigned = 0
        for entry in entries {
            guard let record = entry.record else { unsigned += 1; continue }
            console.out(record.jsonLine)
        }
        if unsigned > 0 {
            console.error("\(unsigned) of \(entries.count) attempt(s) have no audit record (run without --audit-key, "
                          + "or removed); 'dfukit station audit verify' reports each")
        }
        return ExitCode.success
    }
}
