/// One radio of a batch, checked before any device (`Preflight.radios`).
public struct BatchRadioPlan: Sendable {
    /// The name attempts and summaries carry: the scheme's (`hci0` for `bluez:hci0`), else `radio-N`
    /// (N: its place among the batch's radios, from 1).
    public var name: String
    /// The device string of this radio alone, e.g. `bluez:hci1` out of `bluez:hci0,hci1`.
    public var device: String
    /// Its parts.
    public var locator: DeviceLocator
    /// The scheme `locator` names, its target checked.
    public var scheme: any TransportScheme

    /// The radio `name` at `locator`, reached through `scheme`.
    public init(name: String, locator: DeviceLocator, scheme: any TransportScheme) {
        self.name = name
        self.device = locator.description
        self.locator = locator
        self.scheme = scheme
    }
}

extension Preflight {
    /// A batch's radios from its device strings (`BatchRequest.transports`), in order: each string
    /// parsed and its target checked by its scheme, a list such as `bluez:hci0,hci1` split into one
    /// radio per adapter, each radio named. Refused, before anything is opened: no device string;
    /// one adapter given twice (the same simulated fleet twice is two radios hearing the same
    /// devices); two radios of one name; several radios with a device address (list the devices
    /// in the line instead); radios on simulated and wall clocks together.
    /// - Throws: `.usage`, naming the device string.
    public static func radios(_ transports: [String], registry: TransportRegistry = .standard)
        throws(DFUKitError) -> [BatchRadioPlan] {
        guard !transports.isEmpty else {
            throw DFUKitError(kind: .usage, message: "a batch needs its radios: a device string (--device, 'device:' in the "
                              + "line file) such as bluez:hci0, bluez:hci0,hci1, hci:tcp:HOST:PORT or sim:NAME?fleet=N")
        }
        var found: [BatchRadioPlan] = []
        for text in transports {
            let (locator, scheme) = try registry.locate(text)
            for target in try scheme.radioTargets(locator.target) {
                let radio = DeviceLocator(scheme: locator.scheme, target: target, address: locator.address)
                try scheme.check(target: target)
                let name = scheme.radioName(target: target) ?? "radio-\(found.count + 1)"
                found.append(BatchRadioPlan(name: name, locator: radio, scheme: scheme))
            }
        }
        for (index, radio) in found.enumerated() {
            let earlier = found[..<index]
            let sameTarget = earlier.contains {
                $0.locator.scheme == radio.locator.scheme && $0.locator.target == radio.locator.target
            }
            if sameTarget, !radio.scheme.sharesDevicesAcrossRadios(target: radio.locator.target) {
                throw DFUKitError(kind: .usage, message: "\(radio.device) is given twice: one adapter is one radio "
                                  + "(its --concurrency is how many devices it flashes at once)")
            }
            if let twin = earlier.first(where: { $0.name == radio.name }), !sameTarget {
                throw DFUKitError(kind: .usage, message: "two radios are named \(radio.name) (\(twin.device) and "
                                  + "\(radio.device)): one adapter cannot be two radios")
            }
        }
        guard found.count > 1 else { return found }
        if let addressed = found.first(where: { $0.locator.address != nil }) {
            throw DFUKitError(kind: .usage, message: "\(addressed.device): a station's radios name no device; list the "
                              + "devices in the line file ('devices:') or leave them to the scan")
        }
        let simulated = found.filter { $0.scheme.usesSimulatedClock(target: $0.locator.target) }
        if !simulated.isEmpty, simulated.count < found.count {
            throw DFUKitError(kind: .usage, message: "the radios mix simulated clocks ("
                              + simulated.map(\.device).joined(separator: ", ") + ") with the wall clock: a batch's "
                              + "times are on one clock; give them the same kind of transport")
        }
        return found
    }
}
