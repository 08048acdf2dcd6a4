import DFUKit
import DFULedger
import Foundation

/// `dfukit station resume --ledger URL --line NAME [--operator NAME] [--reason TEXT]`: an
/// operator resumes a halted line.
struct StationResumeCommand: Command {
    static let name = "station resume"
    static let summary = "Resume a halted provisioning line: its stations start new devices again."
    static let usage = "dfukit station resume --ledger URL --line NAME [--operator NAME] [--reason TEXT]"
    static let options: [OptionSpec] = [
        OptionSpec("--ledger", value: "URL", help: "sqlite:PATH or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"),
        OptionSpec("--line", value: "NAME", help: "the halted line (as 'batch run' names it: --line, the line file's name, "
                   + "or the station's)"),
        OptionSpec("--operator", value: "NAME", help: "who resumes it, in the ledger (default: $USER)"),
        OptionSpec("--reason", value: "TEXT", help: "why, in the ledger and the reports"),
    ]
    static let discussion = """
        Records the resume (who, when, why) in the ledger; the line's stations that wait (the
        default) see it within their poll interval and start new devices again. The halt rule then
        counts only attempts made after the resume. Resuming a line that is not halted records
        nothing and says so (exit 0: a resume is idempotent, so a script or a second operator may
        repeat it).
        Exit: 0 resumed or not halted, 64 usage, 65 not a DFUKit ledger, 74 the ledger cannot be opened.
        """

    let ledgerURL: LedgerURL
    let line: String
    let operatorName: String?
    let reason: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'", command: command)
        }
        ledgerURL = try StationAuditExportCommand.ledgerURL(try arguments.requiredValue("--ledger"), command: command)
        line = try arguments.requiredValue("--line")
        if let problem = LineConfiguration.lineNameProblem(line) { throw UsageError("--line \(problem)", command: command) }
        operatorName = arguments.value("--operator") ?? ProcessInfo.processInfo.environment["USER"]
        reason = arguments.value("--reason")
    }

    func run(_ console: any Console) async -> Int32 {
        let event = LineEvent(kind: .resumed, line: line, operatorName: operatorName, reason: reason)
        switch await StationLineControl.record(event, at: ledgerURL, console: console) {
        case .failure(let status): return status.code
        case .success(true):
            console.error("line \(line) resumed" + (operatorName.map { " by \($0)" } ?? "")
                          + (reason.map { ": \($0)" } ?? "") + "; its stations start new devices again")
        case .success(false):
            console.error("line \(line) is not halted: nothing recorded")
        }
        return ExitCode.success
    }
}

/// `dfukit station release --ledger URL DEVICE [--operator NAME] [--reason TEXT]`: an operator
/// puts a quarantined device back.
struct StationReleaseCommand: Command {
    static let name = "station release"
    static let summary = "Release a quarantined device: stations may claim it again."
    static let usage = "dfukit station release --ledger URL DEVICE [--operator NAME] [--reason TEXT]"
    static let options: [OptionSpec] = [
        OptionSpec("--ledger", value: "URL", help: "sqlite:PATH or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"),
        OptionSpec("--operator", value: "NAME", help: "who releases it, in the ledger (default: $USER)"),
        OptionSpec("--reason", value: "TEXT", help: "why, in the ledger and the reports"),
    ]
    static let discussion = """
        Records the release (who, when, why): the device is claimed again by the next run or
        station, and its failed attempts count afresh towards --quarantine-after. Releasing a
        device that is not quarantined records nothing and says so (exit 0).
        Exit: 0 released or not quarantined, 64 usage, 65 not a DFUKit ledger, 74 the ledger cannot be opened.
        """

    let ledgerURL: LedgerURL
    let device: String
    let operatorName: String?
    let reason: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.count == 1 else {
            throw UsageError("give one device address, e.g. C0:FF:EE:00:00:01", command: command)
        }
        device = arguments.positionals[0]
        guard device.split(separator: ":").count == 6 else {
            throw UsageError("'\(device)' is not a device address like C0:FF:EE:00:00:01", command: command)
        }
        ledgerURL = try StationAuditExportCommand.ledgerURL(try arguments.requiredValue("--ledger"), command: command)
        operatorName = arguments.value("--operator") ?? ProcessInfo.processInfo.environment["USER"]
        reason = arguments.value("--reason")
    }

    func run(_ console: any Console) async -> Int32 {
        let event = LineEvent(kind: .released, line: nil, operatorName: operatorName, reason: reason, device: device)
        switch await StationLineControl.record(event, at: ledgerURL, console: console) {
        case .failure(let status): return status.code
        case .success(true): console.error("\(device) released: stations may claim it again")
        case .success(false): console.error("\(device) is not quarantined: nothing recorded")
        }
        return ExitCode.success
    }
}

/// An operator's line control, recorded in an existing ledger.
enum StationLineControl {
    /// Records `event`; whether it changed anything, or the exit status of why it could not.
    static func record(_ event: LineEvent, at url: LedgerURL, console: any Console) async -> Result<Bool, ExitStatus> {
        do throws(LedgerError) {
            // An existing ledger, migrated to schema 4 when older (the line controls' table).
            guard try await ledgerExists(url) else {
                console.error("error: \(url): no such ledger (a ledger is created by 'dfukit batch run')")
                return .failure(ExitStatus(code: ExitCode.ioError))
            }
            let ledger = try await url.open()
            let recorded: Bool
            do throws(LedgerError) {
                recorded = try await ledger.recordLineEvent(event)
            } catch {
                await ledger.close()
                throw error
            }
            await ledger.close()
            return .success(recorded)
        } catch {
            console.error("error: \(error)")
            return .failure(ExitStatus(code: error.kind == .notALedger ? ExitCode.dataError : ExitCode.ioError))
        }
    }

    /// Opening with `.existing` fails on a missing file or database without a ledger.
    private static func ledgerExists(_ url: LedgerURL) async throws(LedgerError) -> Bool {
        let ledger = try await url.open(LedgerOptions(access: .existing))
        await ledger.close()
        return true
    }
}
