/// "Did you mean ...?" hints: the nearest candidate by edit distance (with transpositions).
/// Profiles use it for keys and names; the command line for commands, options and parameters.
public enum KeySuggestion {
    /// The candidate closest to `word`, when it is close enough to be a plausible typo.
    public static func nearest(to word: String, in candidates: [String]) -> String? {
        let limit = word.count <= 3 ? 1 : (word.count <= 6 ? 2 : 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(word.lowercased()), Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// `"; did you mean 'x'?"`, or nil when nothing is close.
    public static func didYouMean(_ word: String, in candidates: [String]) -> String? {
        nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" }
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
    /// two neighbours each cost 1.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
