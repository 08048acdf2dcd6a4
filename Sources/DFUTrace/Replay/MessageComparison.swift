import DFUBytes
import DFUEngine
import DFUProfile

/// Compares a message DFUKit writes with the one a captured client wrote in its place, field by
/// field along the profile's layout of the command DFUKit meant to send, and says of each
/// difference whether it may be legitimate (`FieldDifference.Variance`).
struct MessageComparison {
    let profile: Profile

    /// The differences between `captured` and `now`, written to characteristic `role`; empty
    /// when the bytes are equal. `command` is the profile's command DFUKit's bytes were read
    /// as (nil: raw data of a stream step, compared as bytes).
    func differences(captured: [UInt8], now: [UInt8], command: String?, role: String,
                     framing: LengthHeaderFormat?) -> [FieldDifference] {
        guard captured != now else { return [] }
        guard let command, let spec = profile.commands[command] else {
            return [FieldDifference(message: command ?? role, field: "data", captured: Self.render(captured),
                                    now: Self.render(now), variance: .imageDerived)]
        }
        var differences: [FieldDifference] = []
        var offset = 0
        for (index, field) in spec.request.fields.enumerated() {
            let name = field.name.map { "field '\($0)'" } ?? "field \(index + 1)"
            if case .cbor = field.type {
                differences += cborDifferences(captured: Array(captured.dropFirst(offset)), now: Array(now.dropFirst(offset)),
                                               field: field, command: command)
                offset = max(captured.count, now.count)
                break
            }
            let width = ReceivedLayout.fixedWidth(field.type) ?? max(captured.count, now.count) - offset
            let left = Self.slice(captured, offset, width), right = Self.slice(now, offset, width)
            if left != right {
                differences.append(FieldDifference(message: command, field: name, captured: Self.render(left, as: field.type),
                                                   now: Self.render(right, as: field.type),
                                                   variance: Self.variance(of: field.value, in: field.type, framing: framing,
                                                                           offset: offset)))
            }
            offset += width
        }
        if offset < max(captured.count, now.count), captured.count != now.count {
            differences.append(FieldDifference(message: command, field: "length", captured: "\(captured.count) bytes",
                                               now: "\(now.count) bytes", variance: .imageDerived))
        }
        return differences
    }

    private func cborDifferences(captured: [UInt8], now: [UInt8], field: FieldSpec, command: String) -> [FieldDifference] {
        let name = field.name.map { "field '\($0)'" } ?? "the CBOR body"
        guard captured != now else { return [] }
        guard case let .map(left)? = try? CBOR.decode(captured), case let .map(right)? = try? CBOR.decode(now) else {
            return [FieldDifference(message: command, field: name, captured: Self.render(captured), now: Self.render(now),
                                    variance: .fixed)]
        }
        let entries = field.cborMap ?? []
        func text(_ key: CBORValue) -> String {
            if case let .text(string) = key { return string }
            return "\(key)"
        }
        let capturedKeys = left.map { text($0.key) }, nowKeys = right.map { text($0.key) }
        var differences: [FieldDifference] = []
        for key in (nowKeys + capturedKeys.filter { !nowKeys.contains($0) }) {
            let capturedValue = left.first { text($0.key) == key }?.value
            let nowValue = right.first { text($0.key) == key }?.value
            guard capturedValue != nowValue else { continue }
            let expression = entries.first { $0.key == key }?.value
            differences.append(FieldDifference(
                message: command, field: "\(name) key '\(key)'",
                captured: capturedValue.map { Self.render(CBORBridge.value($0)) } ?? "no such key",
                now: nowValue.map { Self.render(CBORBridge.value($0)) } ?? "no such key",
                variance: capturedValue == nil || nowValue == nil ? Self.presence(expression, entries, key)
                    : Self.variance(of: expression)))
        }
        return differences
    }

    /// A key one side leaves out is as free as its `when:` condition and value.
    private static func presence(_ expression: Expression?, _ entries: [FieldSpec.CBOREntry], _ key: String) -> FieldDifference.Variance {
        guard let entry = entries.first(where: { $0.key == key }) else { return .fixed }
        let value = variance(of: entry.value)
        guard let when = entry.when else { return value == .fixed ? .fixed : value }
        return variance(of: when) == .fixed ? value : .imageDerived
    }

    /// What a field's value is made of. A constant inside a framing's length field is written
    /// by the framing: it follows the message's size.
    static func variance(of expression: Expression?, in type: FieldSpec.FieldType? = nil,
                         framing: LengthHeaderFormat? = nil, offset: Int = 0) -> FieldDifference.Variance {
        if let framing, !framing.isLengthOnly, let width = type.flatMap({ ReceivedLayout.fixedWidth($0) }),
           (offset..<offset + width).overlaps(framing.lengthOffset..<framing.lengthOffset + framing.lengthWidth) {
            return .imageDerived
        }
        guard let node = expression?.node else { return .fixed }
        let roots = node.roots
        if roots.isEmpty || roots == ["param"] { return .fixed }
        if roots == ["sequence"] { return .sequence }
        return .imageDerived
    }

    private static func slice(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> [UInt8] {
        guard offset < bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + max(0, width))])
    }

    static func render(_ bytes: [UInt8], as type: FieldSpec.FieldType? = nil) -> String {
        if case let .unsigned(width, endianness)? = type, bytes.count == width {
            var reader = ByteReader(bytes)
            if let number = try? reader.readUnsigned(width: width, endianness: endianness) {
                return Value.integer(number).description
            }
        }
        return render(.bytes(bytes))
    }

    static func render(_ value: Value) -> String {
        guard case let .bytes(bytes) = value else { return value.description }
        if bytes.isEmpty { return "nothing" }
        let shown = bytes.prefix(16).map { String(format: "%02x", $0) }.joined()
        return bytes.count > 16 ? "\(shown)… (\(bytes.count) bytes)" : shown
    }
}

extension Expression.Node {
    /// The first component of every path it reads (`image` of `image.size`).
    var roots: Set<String> {
        switch self {
        case .integer, .boolean, .string: return []
        case let .path(components): return components.first.map { [$0] } ?? []
        case let .call(_, arguments): return arguments.reduce(into: []) { $0.formUnion($1.roots) }
        case let .unary(_, operand): return operand.roots
        case let .binary(_, left, right): return left.roots.union(right.roots)
        }
    }
}
