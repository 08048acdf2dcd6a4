/// The options of a `serial:` or `udp:` device string that change how the profile's messages
/// are carried (the rest, such as `baud=`, belong to the port).
public struct WireLinkOptions: Sendable, Equatable {
    /// `line-length=N`: the longest console frame the device takes (`smp-console` only).
    public var lineLength: Int?
    /// `buffer=N`: the largest message the device takes.
    public var buffer: Int?

    /// Options as given.
    public init(lineLength: Int? = nil, buffer: Int? = nil) {
        self.lineLength = lineLength
        self.buffer = buffer
    }

    /// Reads `line-length` and `buffer` from a device string's `key=value` options; other keys
    /// are left to the caller.
    /// - Throws: `.usage` for a value that is not a number in range.
    public init(options: [(key: String, value: String)], device: String) throws(DFUKitError) {
        for (key, value) in options {
            switch key {
            case "line-length": lineLength = try Self.number(value, key: key, range: 16...65535, device: device)
            case "buffer": buffer = try Self.number(value, key: key, range: 16...(1 << 20), device: device)
            default: continue
            }
        }
    }

    /// Checks the options against the profile's link entry: `line-length` frames console lines,
    /// so it means nothing to another framing.
    /// - Throws: `.usage`.
    public func check(against spec: WireLinkSpec, profile: String, device: String) throws(DFUKitError) {
        if lineLength != nil, spec.framing != .smpConsole {
            throw DFUKitError(kind: .usage, message: "\(device): line-length= sets the smp-console framing's line length, "
                              + "but profile '\(profile)' frames its \(spec.kind.rawValue) messages with \(spec.framing.rawValue); "
                              + "leave it out")
        }
    }

    static func number(_ text: String, key: String, range: ClosedRange<Int>, device: String) throws(DFUKitError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw DFUKitError(kind: .usage, message: "\(device): \(key)= must be a number from \(range.lowerBound) to "
                              + "\(range.upperBound), found '\(text)'")
        }
        return value
    }

    /// Splits `TARGET?key=value&...` into the target and its options, in order.
    /// - Throws: `.usage` for an option without `=`.
    public static func split(_ target: String, device: String) throws(DFUKitError) -> (target: String, options: [(key: String, value: String)]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, []) }
        var options: [(key: String, value: String)] = []
        for item in target[target.index(after: mark)...].split(separator: "&") {
            guard let equals = item.firstIndex(of: "=") else {
                throw DFUKitError(kind: .usage, message: "\(device): option '\(item)' must be key=value")
            }
            options.append((String(item[..<equals]), String(item[item.index(after: equals)...])))
        }
        return (String(target[..<mark]), options)
    }
}
