/// Finds which command a command line names, from the words of every command's name
/// (`flash`, `package create`, `smp image list`).
struct CommandTable {
    enum Resolution: Equatable {
        /// The command at `index`, and the arguments after its name.
        case command(index: Int, rest: [String])
        /// The words typed name a group (`package`, `smp image`) but no command of it: the
        /// group's words, its members, and the word after them (nil when there is none).
        case group(words: [String], members: [Int], next: String?)
        case unknown
    }

    let names: [[String]]

    init(_ names: [String]) {
        self.names = names.map { $0.split(separator: " ").map(String.init) }
    }

    func resolve(_ arguments: [String]) -> Resolution {
        // Longest match of command words: "package inspect" before "package".
        let byLength = names.indices.sorted { names[$0].count > names[$1].count }
        for index in byLength where arguments.starts(with: names[index]) {
            return .command(index: index, rest: Array(arguments.dropFirst(names[index].count)))
        }
        // The longest run of leading words that begins some longer command name.
        var words: [String] = []
        for argument in arguments {
            let candidate = words + [argument]
            guard names.contains(where: { $0.count > candidate.count && $0.starts(with: candidate) }) else { break }
            words = candidate
        }
        guard !words.isEmpty else { return .unknown }
        let members = names.indices.filter { names[$0].count > words.count && names[$0].starts(with: words) }
        return .group(words: words, members: members, next: arguments.count > words.count ? arguments[words.count] : nil)
    }
}
