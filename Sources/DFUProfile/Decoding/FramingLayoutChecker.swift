import DFUBytes

/// Checks, once the messages are decoded, that every message written to or notified from a
/// framed characteristic lays out the header its framing expects, so that the length never
/// overwrites, splits or shifts the message's own bytes:
/// - `length-field: insert`: fixed-size fields cover the header's bytes other than the length
///   (`header-size - length-width`), and a field ends exactly at `length-offset`;
/// - `length-field: overlay`: fixed-size fields cover the whole header, and one unsigned field
///   of the length's width lies exactly on the length's bytes (a request's value there is
///   replaced by the length; in a received message it reads the length, so it is in the
///   framing's byte order and requires no value).
struct FramingLayoutChecker {
    /// A field with its place in the message; `size` is nil for a field without a fixed size
    /// (which ends the placed fields).
    private struct Placed: CustomStringConvertible {
        var field: FieldSpec
        var number: Int
        var start: Int
        var size: Int?

        var end: Int? { size.map { start + $0 } }

        var description: String {
            let name = field.name.map { " '\($0)'" } ?? ""
            guard let end else { return "field \(number)\(name)" }
            return "field \(number)\(name) (bytes \(start)..<\(end))"
        }
    }

    let decoder: ProfileDecoder

    func check() {
        var framingOf: [String: FramingSpec] = [:]
        for characteristic in decoder.characteristics {
            if let name = characteristic.framing, let framing = decoder.framings[name] {
                framingOf[characteristic.name] = framing
            }
        }
        func check(_ message: MessageSpec, _ what: String, received: Bool) {
            guard let framing = framingOf[message.characteristic] else { return }
            self.check(message, what: what, received: received, framing: framing)
        }
        for command in decoder.commands.values {
            check(command.request, "the request of command '\(command.name)'", received: false)
            if let response = command.response {
                check(response.message, "the response of command '\(command.name)'", received: true)
            }
        }
        for (name, notification) in decoder.notifications {
            check(notification, "notification '\(name)'", received: true)
        }
    }

    private func check(_ message: MessageSpec, what: String, received: Bool, framing: FramingSpec) {
        let format = framing.format
        let placed = Self.place(message.fields)
        let lengthBytes = "\(format.lengthOffset)..<\(format.lengthOffset + format.lengthWidth)"
        let how: String
        switch format.lengthField {
        case .insert:
            how = format.lengthOffset == 0
                ? "framing '\(framing.name)' inserts its length in front of the message"
                : "framing '\(framing.name)' inserts its length after byte \(format.lengthOffset - 1) of the message"
        case .overlay:
            how = "framing '\(framing.name)' (length-field: overlay) writes its length over bytes \(lengthBytes) "
                + "of the message's own \(format.headerSize)-byte header"
        }
        guard covers(format.headerBytesInMessage, placed, message, what: what, how: how, format: format) else { return }
        switch format.lengthField {
        case .insert:
            if let split = placed.first(where: { $0.start < format.lengthOffset && ($0.end ?? 0) > format.lengthOffset }) {
                error("\(split) of \(what) would be split: \(how); make the fields before the length end exactly "
                      + "at byte \(format.lengthOffset), or change 'length-offset'", at: split.field.location)
            }
        case .overlay:
            checkLengthField(placed, message, what: what, received: received, framing: framing)
        }
    }

    /// Whether fixed-size fields cover the message's first `count` bytes; reports it when not.
    private func covers(_ count: Int, _ placed: [Placed], _ message: MessageSpec, what: String, how: String,
                        format: LengthHeaderFormat) -> Bool {
        guard count > 0 else { return true }
        if let variable = placed.first(where: { $0.size == nil && $0.start < count }) {
            error("\(variable) of \(what) starts at byte \(variable.start) and has no fixed size, but \(how), "
                  + "so bytes 0..<\(count) of the message are header: give it a 'count', or declare fixed-size "
                  + "fields for the header before it", at: variable.field.location)
            return false
        }
        let declared = placed.last(where: { $0.size != nil })?.end ?? 0
        guard declared >= count else {
            let advice = format.lengthField == .insert
                ? "declare fields for them"
                : "declare fields for them, with a \(Self.lengthType(format)) placeholder on bytes "
                    + "\(format.lengthOffset)..<\(format.lengthOffset + format.lengthWidth)"
            error("\(what) declares \(declared) bytes, but \(how), so bytes 0..<\(count) of the message are "
                  + "header: \(advice)", at: message.fields.first?.location ?? message.location)
            return false
        }
        return true
    }

    /// With an overlay: one unsigned field of the length's width exactly on it (received: in the
    /// framing's byte order, without a value).
    private func checkLengthField(_ placed: [Placed], _ message: MessageSpec, what: String, received: Bool,
                                  framing: FramingSpec) {
        let format = framing.format
        let range = format.lengthOffset..<format.lengthOffset + format.lengthWidth
        let type = Self.lengthType(format)
        let need = "declare one \(type) field exactly on bytes \(range.lowerBound)..<\(range.upperBound) "
            + "(framing '\(framing.name)' replaces its value by the length)"
        guard let on = placed.first(where: { $0.start < range.upperBound && ($0.end ?? 0) > range.lowerBound }) else {
            return
        }
        guard on.start == range.lowerBound, on.end == range.upperBound,
              case let .unsigned(_, endianness) = on.field.type else {
            error("\(on) of \(what) overlaps the length's bytes \(range.lowerBound)..<\(range.upperBound): \(need)",
                  at: on.field.location)
            return
        }
        if received, format.lengthWidth > 1, endianness != format.endianness {
            error("\(on) of \(what) holds framing '\(framing.name)''s \(format.endianness.rawValue)-endian length: "
                  + "write its type as \(type)", at: on.field.location)
        }
        if received, on.field.value != nil {
            error("\(on) of \(what) holds framing '\(framing.name)''s length: a 'value' there matches only frames "
                  + "of that length; remove it (give the field a 'name' to read the length)", at: on.field.location)
        }
    }

    /// The field type that matches the length field: `u16be`.
    private static func lengthType(_ format: LengthHeaderFormat) -> String {
        "u\(format.lengthWidth * 8)" + (format.lengthWidth == 1 ? "" : format.endianness == .big ? "be" : "le")
    }

    private static func place(_ fields: [FieldSpec]) -> [Placed] {
        var placed: [Placed] = []
        var offset = 0
        for (index, field) in fields.enumerated() {
            let size: Int?
            switch field.type {
            case let .unsigned(width, _): size = width
            case let .bytes(count): size = count
            case .cbor: size = nil
            }
            placed.append(Placed(field: field, number: index + 1, start: offset, size: size))
            guard let size else { break }
            offset += size
        }
        return placed
    }

    private func error(_ message: String, at location: SourceLocation) {
        decoder.context.error(message, at: location)
    }
}
