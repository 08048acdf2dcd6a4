import DFUBytes
import DFUEngine
import DFUProfile

/// Reads the messages of a profile as an observer of the link sees them: a message written to a
/// characteristic is the request of the command whose integer constants (opcode, group, id) it
/// holds; a notified one is the response of a request still waiting (checked with the
/// response's `match`, so SMP answers pair with their request by sequence number), else one of
/// the profile's notifications, else an unsolicited response.
public final class MessageCatalog {
    /// The profile whose messages it reads.
    public let profile: Profile
    /// Requests written whose response has not come yet, oldest first.
    private var waiting: [(command: String, fields: [String: Value])] = []

    /// A catalog of `profile`'s commands and notifications, with no request waiting.
    public init(profile: Profile) {
        self.profile = profile
    }

    /// The framing of messages written to and notified from `role`.
    public func framing(of role: String) -> LengthHeaderFormat? {
        profile.characteristic(named: role)?.framing.flatMap { profile.framings[$0]?.format }
    }

    /// Forgets the requests waiting for a response (a new connection).
    public func reset() {
        waiting.removeAll()
    }

    /// A message written to `role`.
    package func readWritten(_ bytes: [UInt8], to role: String) -> MessageReading {
        let candidates = profile.commands.values.filter { $0.request.characteristic == role }.sorted { $0.name < $1.name }
        guard !candidates.isEmpty else { return .raw }
        var best: [(command: CommandSpec, layout: MessageSpec, fields: [String: Value], score: Int)] = []
        var closest = "no command fits"
        for command in candidates {
            let layout = ReceivedLayout.matching(command.request, framing: framing(of: role))
            switch decode(bytes, layout) {
            case let .matched(fields):
                let score = ReceivedLayout.constantCount(layout) * 4 + RequestScore.cbor(layout, fields)
                if let top = best.first?.score, score < top { continue }
                if let top = best.first?.score, score > top { best.removeAll() }
                best.append((command, layout, fields, score))
            case let .mismatched(reason):
                closest = "not '\(command.name)': \(reason)"
            }
        }
        guard let chosen = best.first else {
            return .unknown("no command of the profile fits (data of a stream?): \(closest)")
        }
        if chosen.command.response != nil {
            waiting.append((chosen.command.name, chosen.fields))
            if waiting.count > 64 { waiting.removeFirst() }
        }
        var message = DecodedMessage(name: chosen.command.name, kind: .request,
                                     fields: Self.named(chosen.fields, chosen.layout))
        message.alternatives = best.dropFirst().map(\.command.name)
        return .decoded(message)
    }

    /// A message notified from `role`.
    package func readNotified(_ bytes: [UInt8], from role: String) -> MessageReading {
        for (index, request) in waiting.enumerated() {
            guard let response = profile.commands[request.command]?.response, response.message.characteristic == role,
                  case let .matched(fields) = decode(bytes, response), matches(response, request.fields, fields) else {
                continue
            }
            waiting.remove(at: index)
            return .decoded(responseMessage(request.command, response, fields))
        }
        for notification in profile.notifications.values.sorted(by: { $0.name < $1.name })
        where notification.characteristic == role {
            let layout = ReceivedLayout.matching(notification, framing: framing(of: role))
            if case let .matched(fields) = decode(bytes, layout, status: notification.status) {
                var message = DecodedMessage(name: notification.name, kind: .notification,
                                             fields: Self.named(fields, layout))
                message.status = StatusReading.describe([notification.status].compactMap { $0 }, fields, profile)
                return .decoded(message)
            }
        }
        var closest = "no response or notification of the profile comes from '\(role)'"
        for command in profile.commands.values.sorted(by: { $0.name < $1.name }) {
            guard let response = command.response, response.message.characteristic == role else { continue }
            switch decode(bytes, response) {
            case let .matched(fields):
                var message = responseMessage(command.name, response, fields)
                message.unsolicited = true
                return .decoded(message)
            case let .mismatched(reason):
                closest = "no response fits (not '\(command.name)': \(reason))"
            }
        }
        return .unknown(closest)
    }

    private func responseMessage(_ command: String, _ response: ResponseSpec, _ fields: [String: Value]) -> DecodedMessage {
        let layout = ReceivedLayout.matching(response.message, framing: framing(of: response.message.characteristic))
        var message = DecodedMessage(name: command, kind: .response, fields: Self.named(fields, layout))
        message.status = StatusReading.describe([response.status].compactMap { $0 } + response.moreStatuses, fields, profile)
        return message
    }

    private func decode(_ bytes: [UInt8], _ response: ResponseSpec) -> MessageDecoder.Outcome {
        let layout = ReceivedLayout.matching(response.message, framing: framing(of: response.message.characteristic))
        return decode(bytes, layout, status: response.status)
    }

    private func decode(_ bytes: [UInt8], _ layout: MessageSpec, status: StatusSpec? = nil) -> MessageDecoder.Outcome {
        do {
            return try MessageDecoder.decode(bytes, as: layout, in: Scope(), status: status)
        } catch {
            return .mismatched(reason: "\(error)")
        }
    }

    /// The response's `match` conditions over the request's and the response's fields.
    private func matches(_ response: ResponseSpec, _ request: [String: Value], _ fields: [String: Value]) -> Bool {
        let scope = Scope(["request": .record(request), "response": .record(fields)])
        return response.match.allSatisfy { (try? ExpressionEvaluator.condition($0, in: scope)) ?? false }
    }

    static func named(_ fields: [String: Value], _ layout: MessageSpec) -> [DecodedMessage.Field] {
        layout.fields.compactMap { spec in
            spec.name.flatMap { name in fields[name].map { DecodedMessage.Field(name: name, value: $0) } }
        }
    }
}

/// Tells apart requests that differ only in their CBOR map (SMP's image test and confirm): one
/// point for each key the map sends, one for each literal entry whose value is the one read.
enum RequestScore {
    static func cbor(_ layout: MessageSpec, _ fields: [String: Value]) -> Int {
        guard let field = layout.fields.last, case .cbor = field.type, let entries = field.cborMap else { return 0 }
        guard let name = field.name, case let .record(read)? = fields[name] else {
            return 0
        }
        var score = 0
        for entry in entries {
            guard let value = read[entry.key] else {
                if entry.when == nil { score -= 4 }
                continue
            }
            score += 1
            switch entry.value.node {
            case let .integer(number): score += value == .integer(number) ? 1 : -4
            case let .boolean(flag): score += value == .boolean(flag) ? 1 : -4
            default: break
            }
        }
        return score - read.keys.filter { key in !entries.contains { $0.key == key } }.count * 4
    }
}
