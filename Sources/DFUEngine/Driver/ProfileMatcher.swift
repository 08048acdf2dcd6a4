import DFUGATT
import DFUProfile

/// Whether an advertising device is one a profile applies to.
public enum ProfileMatcher {
    /// True when the advertisement fits the profile's `match`: its name fits the name pattern
    /// (a glob), when there is one, it advertises every service the rules list, and the
    /// manufacturer data they ask for, when they do. Empty rules match nothing: they cannot tell
    /// the profile's devices from any other advertiser (`DeviceSelection.refusal`).
    public static func matches(_ advertisement: Advertisement, _ rules: MatchRules) -> Bool {
        guard !rules.isEmpty else { return false }
        if let pattern = rules.namePattern {
            guard let name = advertisement.name, glob(pattern, matches: name) else { return false }
        }
        if let manufacturer = rules.manufacturer {
            guard advertisement.manufacturerData.contains(where: {
                $0.companyID == manufacturer.companyID && $0.data.starts(with: manufacturer.dataPrefix)
            }) else { return false }
        }
        return rules.services.allSatisfy(advertisement.serviceUUIDs.contains)
    }

    /// `*` any run of characters, `?` any one character.
    package static func glob(_ pattern: String, matches text: String) -> Bool {
        let pattern = Array(pattern), text = Array(text)
        var p = 0, t = 0, star = -1, resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1; t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p; resume = t; p += 1
            } else if star >= 0 {
                p = star + 1; resume += 1; t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
