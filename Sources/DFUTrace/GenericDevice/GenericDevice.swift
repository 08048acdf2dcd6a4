import DFUBytes
import DFUGATT
import DFUProfile

/// A device made from a profile alone, for tracing a profile without a radio or a simulator:
/// it has the profile's characteristics and answers each request with the response the profile
/// describes (see `GenericAnswers`), so a procedure runs as far as a device that says "yes"
/// lets it.
///
/// Time is virtual: a write with response takes one 7.5 ms connection event, a write without
/// response a quarter of one, and an answer is notified one event after its request. It
/// advertises at `address` (and, for bootloaders that move, at any other address it is asked
/// for) with a name that fits the profile's `match` and the services it lists.
public final class GenericDevice: GATTTransport {
    /// The address the generic device advertises at (a bootloader that moves is found at any other).
    public static let address = DeviceAddress(string: "F0:DF:00:00:00:01")!
    /// The connection interval of its virtual link: 7.5 ms, the shortest the Core spec allows.
    public static let connectionInterval: Duration = .microseconds(7500)

    let profile: Profile
    let mtu: Int
    let clock = VirtualClock()
    let answers: GenericAnswers

    /// `mtu`: the ATT_MTU of every connection (23 to 517); `rules`: what to answer in fields the
    /// profile cannot tell (checked with `AnswerRule.problem(in:)` first).
    public init(profile: Profile, mtu: Int = 247, rules: [AnswerRule] = []) {
        self.profile = profile
        self.mtu = max(23, min(mtu, 517))
        answers = GenericAnswers(profile: profile, rules: rules)
    }

    public var name: String { "generic device of '\(profile.name)'" }
    public var now: Duration { clock.now }

    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        clock.advance(by: .milliseconds(100))
        return [advertisement(Self.address)]
    }

    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        clock.advance(by: Self.connectionInterval * 4)
        return GenericDeviceLink(device: self, address: address)
    }

    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError)
        -> Advertisement? {
        clock.advance(by: .milliseconds(100))
        return advertisement(address)
    }

    public func sleep(until deadline: Duration) async {
        clock.advance(to: deadline)
    }

    /// A name that fits the profile's `match.name` glob (`DFU-*` advertises `DFU-generic`).
    var advertisedName: String {
        guard let pattern = profile.match.namePattern else { return "generic " + profile.name }
        return pattern.replacingOccurrences(of: "*", with: "generic").replacingOccurrences(of: "?", with: "x")
    }

    private func advertisement(_ address: DeviceAddress) -> Advertisement {
        Advertisement(address: address, name: advertisedName, serviceUUIDs: profile.match.services, rssi: -40,
                      manufacturerData: profile.match.manufacturer.map {
                          [ManufacturerData(companyID: $0.companyID, data: $0.dataPrefix)]
                      } ?? [])
    }
}

/// The generic device's clock: it moves only when the device or the engine makes it.
final class VirtualClock {
    private(set) var now: Duration = .zero

    func advance(by duration: Duration) {
        now += duration
    }

    func advance(to deadline: Duration) {
        now = max(now, deadline)
    }
}
