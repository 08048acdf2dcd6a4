import DFUBytes

/// One case of the fault matrix: the fault, where it hit, how the update ended, what the device
/// really holds, and whether the tool's report disagrees with that.
public struct MatrixRow: Sendable {
    public var subject: String
    /// The `sim:` fault, e.g. "disconnect-on:reset:1".
    public var fault: String
    /// The phase under way when the fault first showed (a resume, a resend), or at the end.
    public var phase: String
    /// `verified`, `completed` (ended without an error, its checksums unconfirmed) or `error`.
    public var outcome: String
    /// The error the tool reported (empty when verified).
    public var message: String
    /// What the device holds, from the simulator: its stage and one line why.
    public var deviceStage: String
    public var deviceState: String
    /// The stages the tool reported the device may be in.
    public var reportedHolds: [String]
    /// The tool's report disagrees with the device: verified while the device does not hold
    /// the image as the goal says, or an error whose stages do not include the device's.
    public var silent: Bool
    /// An error that does not say what the device holds.
    public var unexplained: Bool
    public var resumes: Int
    public var retries: Int

    var json: JSONValue {
        .object([
            (key: "profile", value: .string(subject)),
            (key: "fault", value: .string(fault)),
            (key: "phase", value: .string(phase)),
            (key: "outcome", value: .string(outcome)),
            (key: "message", value: .string(message)),
            (key: "device_state", value: .string("\(deviceStage): \(deviceState)")),
            (key: "reported_device_holds", value: .array(reportedHolds.map { .string($0) })),
            (key: "silent", value: .bool(silent)),
            (key: "unexplained", value: .bool(unexplained)),
            (key: "resumes", value: .integer(Int64(resumes))),
            (key: "retries", value: .integer(Int64(retries))),
        ])
    }
}

/// The rows of a run, as `.build/fault-matrix/results.json` holds them.
public struct MatrixResults: Sendable {
    public var rows: [MatrixRow]

    public init(rows: [MatrixRow]) { self.rows = rows }

    public var silentCount: Int { rows.filter(\.silent).count }
    public var unexplainedCount: Int { rows.filter(\.unexplained).count }

    public var json: JSONValue {
        .object([
            (key: "cases", value: .integer(Int64(rows.count))),
            (key: "verified", value: .integer(Int64(rows.filter { $0.outcome == "verified" }.count))),
            (key: "errors", value: .integer(Int64(rows.filter { $0.outcome == "error" }.count))),
            (key: "silent", value: .integer(Int64(silentCount))),
            (key: "unexplained", value: .integer(Int64(unexplainedCount))),
            (key: "rows", value: .array(rows.map(\.json))),
        ])
    }

    /// One line per subject: cases, verified, errors, silent, and the phases covered.
    public var summary: [String] {
        var subjects: [String] = []
        for row in rows where !subjects.contains(row.subject) { subjects.append(row.subject) }
        return subjects.map { subject in
            let mine = rows.filter { $0.subject == subject }
            var phases: [String] = []
            for row in mine where !phases.contains(row.phase) { phases.append(row.phase) }
            return "\(subject): \(mine.count) cases, \(mine.filter { $0.outcome == "verified" }.count) verified, "
                + "\(mine.filter { $0.outcome == "error" }.count) errors, \(mine.filter(\.silent).count) silent, "
                + "\(mine.filter(\.unexplained).count) unexplained; phases: \(phases.joined(separator: ", "))"
        }
    }
}
