/// How a command's answer is printed for a person (without `--json`).
enum AnswerTextFormat: Sendable, Equatable {
    /// Indented JSON of the answer's fields.
    case json
    /// An SMP image state answer as a table of slots (`dfukit smp image list`).
    case imageTable

    /// The text, or nil to print the answer as JSON (an answer without the expected shape).
    func render(_ answer: Any) -> String? {
        switch self {
        case .json: nil
        case .imageTable: SMPImageTable.render(answer)
        }
    }
}

/// `smp image list` as a table:
///
///     slot  version  hash                                                              flags              bootable
///     0     1.0.0    1b2c...                                                           active, confirmed  yes
enum SMPImageTable {
    static func render(_ answer: Any) -> String? {
        guard let body = (answer as? [String: Any])?["body"] as? [String: Any],
              let images = body["images"] as? [[String: Any]] else { return nil }
        guard !images.isEmpty else { return "no images" }
        let header = ["slot", "version", "hash", "flags", "bootable"]
        let rows: [[String]] = images.map { image in
            let flags = ["active", "confirmed", "pending", "permanent"].filter { image[$0] as? Bool == true }
            return [
                (image["image"] as? Int).map { "\($0)/" }.map { $0 + text(image["slot"]) } ?? text(image["slot"]),
                text(image["version"]),
                text(image["hash"]),
                flags.isEmpty ? "-" : flags.joined(separator: ", "),
                (image["bootable"] as? Bool).map { $0 ? "yes" : "no" } ?? "-",
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    private static func text(_ value: Any?) -> String {
        switch value {
        case let text as String: text
        case let number as Int: String(number)
        case nil: "-"
        case let other?: "\(other)"
        }
    }
}
