import DFUKit
import DFULedger
import Foundation

/// `dfukit station audit verify --key PUB (--ledger URL | FILE.jsonl)`.
struct StationAuditVerifyCommand: Command {
    static let name = "station audit verify"
    static let summary = "Check every audit record's signature with the station's public key; in a ledger, that every attempt has one."
    static let usage = "dfukit station audit verify --key PUB (--ledger URL [--station NAME] [--since TIME] | FILE.jsonl)"
    static let options: [OptionSpec] = [
        OptionSpec("--key", value: "PUB", help: "the station's public key (PEM, station.pub from 'dfukit station keygen')"),
        OptionSpec("--ledger", value: "URL", help: "check the ledger's attempts: sqlite:PATH or postgresql://..."),
        OptionSpec("--station", value: "NAME", help: "with --ledger: only attempts made by this station"),
        OptionSpec("--since", value: "TIME", help: "with --ledger: only attempts started at or after TIME"),
    ]
    static let discussion = """
        From a ledger, every attempt must have a record, signed by the key, that names that attempt;
        from a file ('dfukit station audit export' output), every line must be a record signed by the
        key. Each failure is printed with its device, attempt and station (and the file's line), and
        why: missing, bad-signature (the record was changed after signing), other-key, malformed.
        The last line counts them.
        Exit: 0 every record verified, 65 a record is missing or does not verify, 64 usage (also a key
        file that is not an Ed25519 public key), 74 the ledger or the file cannot be read.
        """

    enum Source {
        case ledger(LedgerURL, AttemptFilter)
        case file(String)
    }

    let keyPath: String
    let source: Source

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        keyPath = try arguments.requiredValue("--key")
        switch (arguments.value("--ledger"), arguments.positionals.count) {
        case let (ledger?, 0):
            var since: Date?
            if let text = arguments.value("--since") {
                guard let date = StationAuditExportCommand.time(text) else {
                    throw UsageError("--since '\(text)' is not a time such as 2026-12-01 or 2026-12-01T08:00:00Z",
                                     command: command)
                }
                since = date
            }
            source = .ledger(try StationAuditExportCommand.ledgerURL(ledger, command: command),
                             AttemptFilter(station: arguments.value("--station"), since: since))
        case (nil, 1):
            guard arguments.value("--station") == nil, arguments.value("--since") == nil else {
                throw UsageError("--station and --since select a ledger's attempts: give them with --ledger", command: command)
            }
            source = .file(arguments.positionals[0])
        default:
            throw UsageError("give either --ledger URL or one exported FILE.jsonl", command: command)
        }
    }

    func run(_ console: any Console) async -> Int32 {
        let key: Ed25519PublicKey
        do {
            key = try Ed25519PublicKey(pem: try String(contentsOfFile: keyPath, encoding: .utf8))
        } catch let error as Ed25519KeyError {
            console.error("error: the key \(keyPath) is not usable: \(error.message)")
            return ExitCode.usage
        } catch {
            console.error("error: cannot read the key \(keyPath): \(error.localizedDescription)")
            return ExitCode.usage
        }
        let verification: AuditVerification
        let what: String
        switch source {
        case let .ledger(url, filter):
            switch await StationAuditExportCommand.entries(url, filter: filter, console: console) {
            case let .success(entries): verification = AuditVerification(entries: entries, key: key)
            case let .failure(status): return status.code
            }
            what = "attempt(s) in \(url)"
        case let .file(path):
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                console.error("error: cannot read \(path): \(error.localizedDescription)")
                return ExitCode.ioError
            }
            verification = AuditVerification(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                                              key: key)
            what = "record(s) in \(path)"
        }
        for failure in verification.failures { console.out(failure.description) }
        let missing = verification.failures.filter { $0.reason == .missing }.count
        console.out("\(verification.checked) \(what): \(verification.verified) verified, "
                    + "\(verification.failures.count - missing) not verified, \(missing) missing (key id \(key.keyID))")
        return verification.allVerified ? ExitCode.success : ExitCode.dataError
    }
}
