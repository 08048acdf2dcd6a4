import Foundation

/// Who holds a claim: one ledger instance in one process on one host. Stored in the claims'
/// `session` column as `host=H;pid=P;start=S;id=UUID`.
///
/// A station started again under the same name may release the claims its earlier process held
/// without waiting out their lease only when that process is provably gone: a process that is
/// merely hung (SIGSTOP, a stalled VM) still holds an open lease gate and would write to the
/// device again when it wakes, while the new process writes too. "Provably gone" needs the same
/// host (a process on another machine cannot be looked at) and either no process with that pid
/// or one that started at another time (the pid was reused). Anything else waits for the lease.
public struct LedgerSession: Sendable, Hashable {
    /// The host the process runs on.
    public var host: String
    package var pid: Int32
    /// The process's start time in clock ticks after boot (`/proc/PID/stat`, field 22): with the
    /// pid, it names one process even when pids are reused.
    package var startTime: UInt64
    /// A UUID that tells apart two ledger instances in one process.
    public var id: String

    /// The session of process `pid` started at `startTime` (clock ticks after boot) on `host`.
    public init(host: String, pid: Int32, startTime: UInt64, id: String = UUID().uuidString) {
        self.host = host
        self.pid = pid
        self.startTime = startTime
        self.id = id
    }

    /// A new session of this process.
    public static func current() -> LedgerSession {
        let pid = getpid()
        return LedgerSession(host: ProcessInfo.processInfo.hostName, pid: pid,
                             startTime: Self.startTime(of: pid) ?? 0)
    }

    /// The form stored in the claims' `session` column.
    public var text: String { "host=\(host);pid=\(pid);start=\(startTime);id=\(id)" }

    /// Reads `text`; nil for anything else (a session written by an older DFUKit: a bare UUID).
    public init?(text: String) {
        var fields: [Substring: Substring] = [:]
        for pair in text.split(separator: ";") {
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            fields[pair[..<equals]] = pair[pair.index(after: equals)...]
        }
        guard let host = fields["host"], let pid = fields["pid"].flatMap({ Int32($0) }),
              let start = fields["start"].flatMap({ UInt64($0) }), let id = fields["id"] else { return nil }
        self.init(host: String(host), pid: pid, startTime: start, id: String(id))
    }

    /// Whether the process that held this session has certainly ended, seen from this host.
    package func isProvablyGone(localHost: String = ProcessInfo.processInfo.hostName) -> Bool {
        guard host == localHost, pid > 0 else { return false }
        guard let running = Self.startTime(of: pid) else { return true }
        return running != startTime
    }

    /// Field 22 of `/proc/PID/stat`, or nil when there is no such process. The command name
    /// (field 2) is in parentheses and may hold spaces, so the fields are counted after its `)`.
    static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After ")": field 3 (state) is fields[0], so field 22 is fields[19].
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }
}
