import DFUKit
import DFULedger
import DFUStation
import Foundation

/// `dfukit station serve --ledger URL [--listen HOST:PORT] [--token-file FILE] [--line NAME]`:
/// the line's dashboard (Documentation/DFUKit.docc/StationDashboard.md) until Ctrl-C or SIGTERM.
struct StationServeCommand: Command {
    static let name = "station serve"
    static let summary = "Serve the line's live dashboard (web page, JSON, events, line controls) from its ledger."
    static let usage = "dfukit station serve --ledger URL [--listen HOST:PORT] [--token-file FILE] [--line NAME]"
    static let options: [OptionSpec] = [
        OptionSpec("--ledger", value: "URL", help: "sqlite:PATH or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"),
        OptionSpec("--listen", value: "HOST:PORT", help: "where to listen (default 127.0.0.1:8080; port 0: any free port); "
                   + "any address but the loopback needs a token"),
        OptionSpec("--token-file", value: "FILE", help: "the line controls' token: the file's first line "
                   + "(default: $DFUKIT_STATION_TOKEN); without a token the controls are off"),
        OptionSpec("--line", value: "NAME", help: "the line shown when the page names none (default: every line)"),
    ]
    static let discussion = """
        Prints 'dashboard: http://HOST:PORT/' (the port it listens on) and serves until Ctrl-C or
        SIGTERM. The page, its style and script come from this binary (no CDN); it follows the
        ledger's changes through /events. GET /api/snapshot and /api/devices/ADDRESS answer JSON.
        Resuming a halted line and releasing a quarantined device need the token
        (Authorization: Bearer TOKEN) and are recorded with the operator's name, as 'dfukit station
        resume' and 'dfukit station release' record theirs.
        Exit: 0 stopped by Ctrl-C or SIGTERM, 64 usage (an empty token, an address off the loopback
        without a token), 69 the address cannot be listened on, 74 the token file cannot be read.
        """

    /// The environment variable that holds the token when no --token-file is given.
    static let tokenVariable = "DFUKIT_STATION_TOKEN"

    let ledgerURL: LedgerURL
    let listen: ListenAddress
    let tokenFile: String?
    let line: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'", command: command)
        }
        ledgerURL = try StationAuditExportCommand.ledgerURL(try arguments.requiredValue("--ledger"), command: command)
        do {
            listen = try arguments.value("--listen").map { (text) throws(DashboardServerError) in try ListenAddress(parsing: text) }
                ?? .standard
        } catch {
            throw UsageError("--listen \(error.message)", command: command)
        }
        tokenFile = arguments.value("--token-file")
        line = arguments.value("--line")
        if let line, line.allSatisfy(\.isWhitespace) { throw UsageError("--line must not be empty", command: command) }
    }

    func run(_ console: any Console) async -> Int32 {
        let command = "dfukit \(Self.name)"
        let token: AccessToken?
        do {
            token = try readToken()
            try DashboardServerConfiguration(listen: listen, token: token).validate()
        } catch {
            if error.kind == .unreadableTokenFile {
                console.error("error: \(error.message)")
                return ExitCode.ioError
            }
            console.error(UsageError(error.message + hint(for: error.kind), command: command).printed)
            return ExitCode.usage
        }
        let configuration = DashboardServerConfiguration(listen: listen, token: token, line: line)
        let server: DashboardServer
        do {
            server = try DashboardServer(configuration: configuration, source: makeDashboardSource(ledgerURL: ledgerURL))
        } catch {
            console.error("error: \(error.message)" + hint(for: error.kind))
            return error.kind == .cannotListen ? ExitCode.unavailable : ExitCode.usage
        }
        console.out("dashboard: \(server.address.url)")
        console.error("serving the ledger \(ledgerURL)" + (line.map { ", line \($0)," } ?? "")
                      + (token == nil ? " with the line controls off (no token)" : " with the line controls on")
                      + "; Ctrl-C stops")
        _ = await InterruptHandling.run {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        }
        guard await Self.stop(server, within: .seconds(5)) else {
            console.error("error: the dashboard did not stop within 5 s (a request is still waiting for the ledger); exiting anyway")
            return ExitCode.failure
        }
        return ExitCode.success
    }

    /// The token from --token-file or the environment; nil when neither gives one.
    private func readToken() throws(DashboardServerError) -> AccessToken? {
        if let tokenFile { return try AccessToken(contentsOfFile: tokenFile) }
        guard let text = ProcessInfo.processInfo.environment[Self.tokenVariable] else { return nil }
        do {
            return try AccessToken(text)
        } catch {
            throw DashboardServerError(.invalidToken, "\(Self.tokenVariable) is set but empty: set it to the token, or unset it")
        }
    }

    /// What this command line's options do about a failure of `kind`.
    private func hint(for kind: DashboardServerError.Kind) -> String {
        switch kind {
        case .tokenRequired: "\nGive --token-file FILE (or set \(Self.tokenVariable)), or listen on the loopback: --listen 127.0.0.1:\(listen.port)."
        case .cannotListen: "\nGive another --listen HOST:PORT."
        case .invalidListenAddress, .invalidToken, .unreadableTokenFile: ""
        }
    }

    /// Stops `server`; false when it has not stopped within `limit`.
    private static func stop(_ server: DashboardServer, within limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await server.stop()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
