import DFUKit

/// "Did you mean ...?" for the command line: the nearest command or option to a mistyped one.
enum Suggestion {
    /// `"; did you mean '--profile'?"` for `--profle`, or nil. Dashes are left out of the
    /// comparison, so that two dashes do not make a short word look close to every option.
    static func option(_ typed: String, among names: [String]) -> String? {
        let bare = { (name: String) in String(name.drop { $0 == "-" }) }
        let long = names.filter { $0.hasPrefix("--") }
        guard let nearest = KeySuggestion.nearest(to: bare(typed), in: long.map(bare)) else { return nil }
        return "; did you mean '--\(nearest)'?"
    }

    /// The command whose name is nearest to the words typed (`flsh` -> `flash`, `pakage creat`
    /// -> `package create`), compared word count for word count; nil when nothing is close.
    static func command(_ words: [String], among names: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for name in names {
            let count = name.split(separator: " ").count
            guard words.count >= count else { continue }
            let typed = words.prefix(count).joined(separator: " ")
            guard let nearest = KeySuggestion.nearest(to: typed, in: [name]) else { continue }
            let distance = KeySuggestion.editDistance(Array(typed), Array(nearest))
            // Prefer the longer name at equal distance: `smp image lst` is `smp image list`.
            if best == nil || distance < best!.distance
                || (distance == best!.distance && count > best!.name.split(separator: " ").count) {
                best = (name, distance)
            }
        }
        return best?.name
    }
}

extension Suggestion {
    /// `"; did you mean 'zsh'?"` for a word from a fixed set, or nil.
    static func word(_ typed: String, among words: [String]) -> String? {
        KeySuggestion.didYouMean(typed, in: words)
    }
}
