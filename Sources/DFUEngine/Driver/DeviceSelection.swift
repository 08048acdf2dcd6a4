import DFUGATT
import DFUProfile

/// Which advertiser a flash (or a batch) takes when it is not given an address: one that meets
/// the profile's `match` rules and these filters; of those, the strongest signal (on a line, the
/// device in the fixture is the closest one), the first heard on a tie.
///
/// A profile without match rules is never used to pick: it would take whatever advertises
/// nearby (`refusal(profile:address:)`).
public struct DeviceSelection: Sendable, Equatable {
    /// A glob (`*`, `?`) the advertised name must fit, on top of the profile's rules.
    public var namePattern: String?
    /// The weakest signal accepted, in dBm (e.g. -70): farther devices are left out.
    public var minimumRSSI: Int?

    /// Filters on top of the profile's rules (none by default).
    public init(namePattern: String? = nil, minimumRSSI: Int? = nil) {
        self.namePattern = namePattern
        self.minimumRSSI = minimumRSSI
    }

    /// Why `profile` may not be used for a device found by scanning, or nil when it may (or
    /// when `address` names the device). Pure: callers check it before opening a transport.
    public static func refusal(profile: Profile, address: DeviceAddress?) -> String? {
        guard address == nil, profile.match.isEmpty else { return nil }
        return "profile '\(profile.name)' has no match rule (name, services or manufacturer data), so it cannot tell "
            + "its devices apart from any other advertiser and does not pick one from a scan; name the device's address"
    }

    /// Whether `advertisement` passes these filters (not the profile's rules).
    func admits(_ advertisement: Advertisement) -> Bool {
        passesName(advertisement) && passesSignal(advertisement)
    }

    /// The advertisements that meet the profile's rules and these filters, in the order heard.
    public func candidates(in advertisements: [Advertisement], profile: Profile) -> [Advertisement] {
        advertisements.filter { ProfileMatcher.matches($0, profile.match) && admits($0) }
    }

    /// The advertiser to use, and why; `.failure` says what was heard instead. A profile without
    /// match rules picks nothing (`refusal`).
    public func pick(from advertisements: [Advertisement], profile: Profile) -> Result<DevicePick, DeviceSelectionFailure> {
        if let refusal = Self.refusal(profile: profile, address: nil) {
            return .failure(DeviceSelectionFailure(reason: .profileCannotMatch, message: refusal))
        }
        let matching = advertisements.filter { ProfileMatcher.matches($0, profile.match) }
        let named = matching.filter(passesName)
        let candidates = named.filter(passesSignal)
        let leftOut = leftOutText(unnamed: matching.count - named.count, weak: named.count - candidates.count)
        // max(by:) keeps the first of equal elements: on a tie, the first heard.
        guard let best = candidates.max(by: { $0.rssi < $1.rssi }) else {
            let seen = advertisements.map { "\($0.address) \($0.name.map { "'\($0)'" } ?? "(no name)") at \($0.rssi) dBm" }
            var message = "no advertising device matches profile '\(profile.name)'"
            if !leftOut.isEmpty { message += " and the filters (\(leftOut.joined(separator: "; ")))" }
            message += " (seen: \(seen.isEmpty ? "none" : seen.joined(separator: ", ")))"
            return .failure(DeviceSelectionFailure(reason: matching.isEmpty ? .noneMatch : .noneAdmitted, message: message))
        }
        var reason = "\(best.address) \(best.name.map { "'\($0)'" } ?? "(no name)") at \(best.rssi) dBm, "
        reason += candidates.count == 1 ? "the only matching device"
            : "the strongest of \(candidates.count) matching devices"
        if !leftOut.isEmpty { reason += "; " + leftOut.joined(separator: "; ") }
        return .success(DevicePick(advertisement: best, reason: reason, candidates: candidates.count))
    }

    private func passesName(_ advertisement: Advertisement) -> Bool {
        guard let namePattern else { return true }
        return advertisement.name.map { ProfileMatcher.glob(namePattern, matches: $0) } ?? false
    }

    private func passesSignal(_ advertisement: Advertisement) -> Bool {
        minimumRSSI.map { advertisement.rssi >= $0 } ?? true
    }

    /// "1 more not named 'DFU-*'", "2 more below -70 dBm".
    private func leftOutText(unnamed: Int, weak: Int) -> [String] {
        var parts: [String] = []
        if unnamed > 0, let namePattern { parts.append("\(unnamed) more not named '\(namePattern)'") }
        if weak > 0, let minimumRSSI { parts.append("\(weak) more below \(minimumRSSI) dBm") }
        return parts
    }
}

/// The advertiser a `DeviceSelection` took, and why, in words for the user.
public struct DevicePick: Sendable, Equatable {
    /// What it advertised.
    public var advertisement: Advertisement
    /// "C0:FF:EE:00:00:02 'Foo' at -48 dBm, the strongest of 3 matching devices; 1 more below -70 dBm".
    public var reason: String
    /// How many advertisers met the profile and the filters.
    public var candidates: Int
}

/// Why a `DeviceSelection` took no advertiser.
public struct DeviceSelectionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why nothing was taken.
    public enum Reason: Sendable, Equatable {
        /// The profile has no match rules: it never picks from a scan.
        case profileCannotMatch
        /// Nothing heard meets the profile's rules.
        case noneMatch
        /// Devices meet the profile's rules, but none passes the filters.
        case noneAdmitted
    }

    /// Which case it is.
    public var reason: Reason
    /// What was heard and left out, in words for the user.
    public var message: String

    public var description: String { message }
}
