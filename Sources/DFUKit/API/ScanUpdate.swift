/// One advertising device a scan heard (`DFUKit.scan`), with the profiles it matches.
public struct ScanUpdate: Sendable {
    /// What the device advertised: address, name, services, RSSI.
    public var advertisement: Advertisement
    /// The names of the given profiles whose `match:` rules the device meets.
    public var matchingProfiles: [String]

    /// A device heard, with the profiles it matches.
    public init(advertisement: Advertisement, matchingProfiles: [String]) {
        self.advertisement = advertisement
        self.matchingProfiles = matchingProfiles
    }
}

extension DFUKit {
    /// Listens on `device`'s transport for `seconds` (on its clock) and yields each
    /// advertising device, with which of `profiles` it matches; with `onlyMatching`, only
    /// devices that match one. Cancelling the task stops the scan (`.cancelled`).
    public static func scan(device: String, seconds: Int = 3, profiles: [Profile] = [], onlyMatching: Bool = false,
                            registry: TransportRegistry = .standard) -> DFUKitEvents<ScanUpdate> {
        DFUKitEvents { (channel) throws(DFUKitError) in
            let (locator, scheme) = try registry.locate(device)
            let transport = try scheme.open(TransportRequest(target: locator.target))
            let heard: [Advertisement]
            do throws(GATTError) {
                heard = try await transport.scan(timeout: .seconds(seconds))
            } catch {
                if Task.isCancelled { throw DFUKitError(kind: .cancelled, message: "the scan was cancelled") }
                throw DFUKitError(kind: error.kind == .transportUnavailable ? .transport : .device, message: "\(error)")
            }
            if Task.isCancelled { throw DFUKitError(kind: .cancelled, message: "the scan was cancelled") }
            for advertisement in heard {
                let matching = profiles.filter { ProfileMatcher.matches(advertisement, $0.match) }.map(\.name)
                if onlyMatching, matching.isEmpty { continue }
                channel.send(ScanUpdate(advertisement: advertisement, matchingProfiles: matching))
            }
        }
    }
}
