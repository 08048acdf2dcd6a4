import DFUEngine
import DFUProfile

/// What a message's status says, named by the profile's code tables.
enum StatusReading {
    /// "ok", or "failed: bad-state (0x02): the command is not allowed now"; nil when the
    /// message reports no status. With several statuses (SMP v1 and v2), the first failing one.
    static func describe(_ statuses: [StatusSpec], _ fields: [String: Value], _ profile: Profile) -> String? {
        var success: String?
        for status in statuses {
            let path = status.field.split(separator: ".").map(String.init)
            guard case let .integer(code)? = Scope(fields).lookup(path) else { continue }
            let entry = status.codes.flatMap { profile.codeTables[$0]?.entries[code] }
            let named = "\(entry?.name ?? "code") (\(hex(code)))"
            guard status.success.contains(code) else {
                var text = "failed: " + named + (entry?.message.map { ": " + $0 } ?? "")
                if let detail = status.detail, detail.when == code {
                    let value = detail.field.flatMap { fields[$0] } ?? fields[MessageDecoder.positionalDetailKey]
                    if case let .integer(detailCode)? = value {
                        let detailEntry = detail.codes.flatMap { profile.codeTables[$0]?.entries[detailCode] }
                        text += "; detail \(detailEntry?.name ?? "code") (\(hex(detailCode)))"
                            + (detailEntry?.message.map { ": " + $0 } ?? "")
                    }
                }
                return text
            }
            success = success ?? entry?.name ?? "ok"
        }
        return success
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + (digits.count % 2 == 1 ? "0" : "") + digits
    }
}
