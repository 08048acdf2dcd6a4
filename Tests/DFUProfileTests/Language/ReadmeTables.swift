/// The tables of profiles/README.md, each with the heading it sits under.
struct ReadmeTables {
    struct Table {
        var heading: String
        /// Which table under that heading (0 for the first).
        var index: Int
        var header: [String]
        var rows: [[String]]

        /// The first column's `code` of each row (a key, for key tables).
        var firstColumnCodes: [String] { rows.compactMap { $0.first.flatMap(ReadmeTables.codes)?.first } }
    }

    var headings: [String] = []
    var tables: [Table] = []

    init(markdown: String) {
        var heading = ""
        var current: Table?
        var counts: [String: Int] = [:]
        func close() {
            if let table = current { tables.append(table) }
            current = nil
        }
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("#") {
                close()
                heading = String(line.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces)
                headings.append(heading)
                continue
            }
            guard line.hasPrefix("|") else {
                close()
                continue
            }
            let cells = Self.cells(line)
            if var table = current {
                if !cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { table.rows.append(cells) }
                current = table
            } else {
                current = Table(heading: heading, index: counts[heading, default: 0], header: cells, rows: [])
                counts[heading, default: 0] += 1
            }
        }
        close()
    }

    /// The tables whose first column is `key`.
    var keyTables: [Table] { tables.filter { $0.header.first == "key" } }

    func keyTable(heading: String, index: Int) -> Table? {
        tables.first { $0.heading == heading && $0.index == index && $0.header.first == "key" }
    }

    /// A row's cells, split at `|` (not at an escaped `\|`).
    static func cells(_ line: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for character in line.dropFirst() {
            if escaped {
                cell.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
        }
        return cells
    }

    /// The `code` spans of a cell, in order.
    static func codes(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
