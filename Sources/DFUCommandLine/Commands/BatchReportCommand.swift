import DFULedger
import Foundation

/// `dfukit batch report --ledger URL [--json] [--junit FILE] [--html FILE]`.
struct BatchReportCommand: Command {
    static let name = "batch report"
    static let summary = "Summarize a provisioning ledger: text or JSON, JUnit XML for CI, an HTML page with charts."
    static let usage = "dfukit batch report --ledger URL [--package SHA256] [--station NAME] [--json] [--junit FILE] [--html FILE]"
    static let options: [OptionSpec] = [
        OptionSpec("--ledger", value: "URL", help: "sqlite:PATH or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"),
        OptionSpec("--package", value: "SHA256", help: "only attempts with this package"),
        OptionSpec("--station", value: "NAME", help: "only attempts made by this station"),
        OptionSpec("--json", help: "print one JSON object instead of text"),
        OptionSpec("--junit", value: "FILE", help: "also write JUnit XML (one test case per device)"),
        OptionSpec("--html", value: "FILE", help: "also write a self-contained HTML report with charts"),
    ]
    static let discussion = """
        A device is one address with one package; it succeeded (or was skipped as already running the
        target) when an attempt left it done and no later claim flashed it again, otherwise it failed (or
        was cancelled) as its last attempt did. Its time is that of all its attempts. Times and rates are
        on the clock the attempts ran on, marked "simulated" for sim: runs; devices per hour counts the
        time during which some attempt ran. JSON keys: devices, succeeded, failed, cancelled, skipped,
        attempts, failed_attempts, clock, busy_seconds, by_cause (error kind -> failed attempts), rows
        (one per device), and more. The HTML page draws histograms and the stations' timeline past 40
        devices.
        The ledger is only read; a missing file is not created.
        Exit: 0 the report was written (also when devices failed: the summary says so), 64 usage,
        65 not a DFUKit ledger (or written by a newer dfukit), 74 the ledger or an output file cannot be
        opened or written.
        """

    let ledgerURL: LedgerURL
    let filter: AttemptFilter
    let json: Bool
    let junitPath: String?
    let htmlPath: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'", command: command)
        }
        do {
            ledgerURL = try LedgerURL(parsing: try arguments.requiredValue("--ledger"))
        } catch let error as LedgerError {
            throw UsageError(error.message, command: command)
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError("\(error)", command: command)
        }
        filter = AttemptFilter(packageSHA256: arguments.value("--package"), station: arguments.value("--station"))
        json = arguments.flag("--json")
        junitPath = arguments.value("--junit")
        htmlPath = arguments.value("--html")
    }

    func run(_ console: any Console) async -> Int32 {
        let report: BatchReport
        do {
            let ledger = try await ledgerURL.open(LedgerOptions(access: .existing))
            report = try await BatchReport.load(from: ledger, filter: filter)
            await ledger.close()
        } catch {
            console.error("error: \(error)")
            return error.kind == .notALedger ? ExitCode.dataError : ExitCode.ioError
        }
        var written: [String] = []
        for (path, text, kind) in [(junitPath, { report.renderJUnit() }, "JUnit XML"),
                                   (htmlPath, { report.renderHTML() }, "HTML report")] as [(String?, () -> String, String)] {
            guard let path else { continue }
            do {
                try Data(text().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                written.append("\(kind): \(path)")
            } catch {
                console.error("error: cannot write the \(kind) to \(path): \(error.localizedDescription)")
                return ExitCode.ioError
            }
        }
        let rendered = json ? report.renderJSON() : report.renderText() + written.map { $0 + "\n" }.joined()
        console.out(String(rendered.dropLast()))
        return ExitCode.success
    }
}
