import DFUCapture
import DFUProfile

/// Names a connection's handles when the capture holds no GATT discovery (Android reuses its
/// cache): each handle written to (or notifying) is given the profile characteristic whose
/// messages its values read best as, each characteristic once.
enum HandleNaming {
    static func byContent(_ connection: CapturedConnection, profile: Profile) -> [UInt16: String] {
        var written: [UInt16: [[UInt8]]] = [:], notified: [UInt16: [[UInt8]]] = [:]
        for operation in connection.operations {
            switch operation.kind {
            case let .write(handle, value, _): written[handle, default: []].append(value)
            case let .notification(handle, value, _): notified[handle, default: []].append(value)
            default: continue
            }
        }
        var names: [UInt16: String] = [:]
        var taken: Set<String> = []
        // Written handles first: requests carry opcodes, the surest sign.
        for (handle, values) in written.sorted(by: { $0.value.count > $1.value.count }) {
            let scores = profile.characteristics.filter { !taken.contains($0.name) }.map { spec in
                (spec.name, score(values, role: spec.name, profile: profile, written: true))
            }
            if let best = scores.max(by: { $0.1 < $1.1 }), best.1 > 0 {
                names[handle] = best.0
                taken.insert(best.0)
            }
        }
        for (handle, values) in notified.sorted(by: { $0.value.count > $1.value.count }) where names[handle] == nil {
            let candidates = profile.characteristics.filter { spec in
                !taken.contains(spec.name) || names.values.contains(spec.name) && written[handle] == nil
            }
            let scores = candidates.map { spec in (spec.name, score(values, role: spec.name, profile: profile, written: false)) }
            if let best = scores.max(by: { $0.1 < $1.1 }), best.1 > 0 {
                names[handle] = best.0
                taken.insert(best.0)
            }
        }
        return names
    }

    /// How many of the values' messages the profile decodes as written to (or notified by) `role`.
    private static func score(_ values: [[UInt8]], role: String, profile: Profile, written: Bool) -> Int {
        let catalog = MessageCatalog(profile: profile)
        var stream = MessageStream(framing: catalog.framing(of: role))
        var score = 0
        for value in values.prefix(64) {
            guard case let .success(messages) = stream.append(value) else { continue }
            for (bytes, _) in messages {
                let reading = written ? catalog.readWritten(bytes, to: role) : catalog.readNotified(bytes, from: role)
                if case .decoded = reading { score += 2 } else if case .raw = reading { score += 1 }
            }
        }
        return score
    }
}
