import DFUBytes
import DFUEngine
import DFUProfile

/// How the generic device answers a request: with the response its command describes, as a
/// device that says "yes" would:
/// - constant fields hold their value (`{ type: u8, value: 0x85 }`);
/// - status fields hold their first success value (for a status inside a CBOR body, such as
///   SMP's `body.rc`, the body holds that key);
/// - fields that the response's `match` ties to the request are chosen so that every condition
///   holds (`response.seq == request.seq` copies the sequence number, `response.op & 7 == 3` picks 3);
/// - other fields are zero (empty for bytes without a count), except integers whose name says
///   they are a maximum (`max_chunk`, `max_size`), which are 4096 (or the largest the field
///   holds), so that chunk loops have a size to run with;
/// - a CBOR body holds the keys the profile's expressions read from it (`CBORReads`): a list
///   where `has` or `find` reads it, else 0.
/// What a field cannot be known from the profile (an offset the device reached, a checksum of
/// what it received) is therefore zero, and a `check` or `expect` over it fails: the trace
/// shows how far a procedure gets, unless an `AnswerRule` says what the field holds.
///
/// One per device: it remembers the last request of each command (for the rules) across
/// connections.
final class GenericAnswers {
    struct Answer {
        var characteristic: String
        /// The frame to notify (with its header when the characteristic has a framing).
        var bytes: [UInt8]
        /// The command reboots the device (always, not only `when` something holds).
        var reboots: Bool
    }

    static let plausibleMaximum: UInt64 = 4096

    private let profile: Profile
    private let catalog: MessageCatalog
    private let reads: CBORReads
    private let rules: [AnswerRule]
    /// The last request of each command, by command name.
    private var received: [String: Value] = [:]

    init(profile: Profile, rules: [AnswerRule]) {
        self.profile = profile
        self.rules = rules
        catalog = MessageCatalog(profile: profile)
        reads = CBORReads(profile: profile)
    }

    func framing(of role: String) -> LengthHeaderFormat? {
        catalog.framing(of: role)
    }

    /// The answer to a message written to `role`; nil for a message that is no request of the
    /// profile, or a command without a response.
    func answer(_ message: [UInt8], writtenTo role: String) -> Answer? {
        guard case let .decoded(request) = catalog.readWritten(message, to: role),
              let command = profile.commands[request.name], let response = command.response else { return nil }
        let requestRecord = Value.record(Dictionary(request.fields.map { ($0.name, $0.value) }) { first, _ in first })
        var values = response.message.fields.map { defaultValue($0, command.name, response) }
        let scope = Scope(["request": requestRecord])
        for (index, field) in response.message.fields.enumerated() {
            guard let expression = field.value, let value = try? ExpressionEvaluator.evaluate(expression, in: scope) else {
                continue
            }
            values[index] = value
        }
        MatchSolver.solve(response, request: requestRecord, values: &values)
        received[command.name] = requestRecord
        apply(rules.filter { $0.command == command.name }, to: &values, of: response.message.fields, request: requestRecord)
        guard let frame = frame(ResponseEncoder.encode(response.message.fields, values),
                                for: response.message.characteristic) else { return nil }
        return Answer(characteristic: response.message.characteristic, bytes: frame,
                      reboots: command.reboots.map { $0.when == nil } ?? false)
    }

    private func apply(_ rules: [AnswerRule], to values: inout [Value], of fields: [FieldSpec], request: Value) {
        var variables = received
        variables["request"] = request
        let scope = Scope(variables)
        for rule in rules {
            guard let index = fields.firstIndex(where: { $0.name == rule.path[0] }),
                  let value = try? ExpressionEvaluator.evaluate(rule.expression, in: scope) else { continue }
            values[index] = rule.path.count == 1 ? value
                : CBORReads.setting(Array(rule.path.dropFirst()), to: value, in: values[index])
        }
    }

    private func frame(_ message: [UInt8], for role: String) -> [UInt8]? {
        guard let format = framing(of: role) else { return message }
        return try? (format.isLengthOnly ? format.frame(payload: message) : format.seal(frame: message))
    }

    /// What a field holds before constants and `match` are applied.
    private func defaultValue(_ field: FieldSpec, _ command: String, _ response: ResponseSpec) -> Value {
        let statuses = [response.status].compactMap { $0 } + response.moreStatuses
        switch field.type {
        case let .unsigned(width, _):
            if let status = statuses.first(where: { $0.field == field.name }) {
                return .integer(status.success.first ?? 0)
            }
            let largest: UInt64 = width >= 8 ? .max : (1 << UInt64(8 * width)) - 1
            let name = field.name?.lowercased() ?? ""
            return .integer(name.contains("max") ? min(Self.plausibleMaximum, largest) : 0)
        case let .bytes(count):
            return .bytes([UInt8](repeating: 0, count: count ?? 0))
        case .cbor:
            var record = Value.record([:])
            for status in statuses {
                let path = status.field.split(separator: ".").map(String.init)
                guard path.count > 1, path[0] == field.name else { continue }
                record = CBORReads.setting(Array(path.dropFirst()), to: .integer(status.success.first ?? 0), in: record)
            }
            return field.name.map { reads.record(for: command, field: $0, over: record) } ?? record
        }
    }
}

/// Chooses the response fields a `match` condition names (`response.seq`) so that the
/// conditions over that field alone hold: the request's field of the same name first, then the
/// request's other integers, the integers written in the conditions, then 0 to 255.
enum MatchSolver {
    static func solve(_ response: ResponseSpec, request: Value, values: inout [Value]) {
        let fields = response.message.fields
        let indexOf = Dictionary(fields.enumerated().compactMap { index, field in field.name.map { ($0, index) } }) { a, _ in a }
        var literals: [UInt64] = []
        let conditions = response.match.map { condition -> (expression: Expression, names: [String]) in
            var names: [String] = []
            collect(condition.node, names: &names, literals: &literals)
            return (condition, names)
        }
        guard case let .record(requestFields) = request else { return }
        let requestIntegers = requestFields.keys.sorted().compactMap { key -> UInt64? in
            if case let .integer(number)? = requestFields[key] { number } else { nil }
        }
        for name in conditions.flatMap(\.names) {
            guard let index = indexOf[name], fields[index].value == nil,
                  case let .unsigned(width, _) = fields[index].type else { continue }
            let own = conditions.filter { $0.names == [name] }.map(\.expression)
            var candidates: [UInt64] = []
            if case let .integer(same)? = requestFields[name] { candidates.append(same) }
            candidates += requestIntegers + literals + (0...255)
            let largest: UInt64 = width >= 8 ? .max : (1 << UInt64(8 * width)) - 1
            for candidate in candidates where candidate <= largest {
                var trial = values
                trial[index] = .integer(candidate)
                if holds(own, request: request, fields: fields, values: trial) {
                    values = trial
                    break
                }
            }
        }
    }

    private static func holds(_ conditions: [Expression], request: Value, fields: [FieldSpec], values: [Value]) -> Bool {
        var record: [String: Value] = [:]
        for (field, value) in zip(fields, values) {
            if let name = field.name { record[name] = value }
        }
        let scope = Scope(["request": request, "response": .record(record)])
        return conditions.allSatisfy { (try? ExpressionEvaluator.condition($0, in: scope)) ?? false }
    }

    /// The response fields a condition names (each once) and the integers written in it.
    private static func collect(_ node: Expression.Node, names: inout [String], literals: inout [UInt64]) {
        switch node {
        case let .path(components):
            if components.count > 1, components[0] == "response", !names.contains(components[1]) {
                names.append(components[1])
            }
        case let .integer(number): if !literals.contains(number) { literals.append(number) }
        case let .call(_, arguments): arguments.forEach { collect($0, names: &names, literals: &literals) }
        case let .unary(_, operand): collect(operand, names: &names, literals: &literals)
        case let .binary(_, left, right):
            collect(left, names: &names, literals: &literals)
            collect(right, names: &names, literals: &literals)
        case .boolean, .string: break
        }
    }
}

/// Writes a response's fields: integers in their width and byte order, bytes (padded or cut to
/// their count), CBOR items.
enum ResponseEncoder {
    static func encode(_ fields: [FieldSpec], _ values: [Value]) -> [UInt8] {
        var writer = ByteWriter()
        for (field, value) in zip(fields, values) {
            switch (field.type, value) {
            case let (.unsigned(width, endianness), .integer(number)):
                let largest: UInt64 = width >= 8 ? .max : (1 << UInt64(8 * width)) - 1
                writer.append(min(number, largest), width: width, endianness: endianness)
            case let (.unsigned(width, endianness), .boolean(flag)):
                writer.append(flag ? 1 : 0, width: width, endianness: endianness)
            case let (.unsigned(width, endianness), _):
                writer.append(0, width: width, endianness: endianness)
            case let (.bytes(count), .bytes(bytes)):
                writer.append(bytes: count.map { Array((bytes + [UInt8](repeating: 0, count: $0)).prefix($0)) } ?? bytes)
            case let (.bytes(count), _):
                writer.append(bytes: [UInt8](repeating: 0, count: count ?? 0))
            case (.cbor, _):
                writer.append(bytes: CBOR.encode(CBORBridge.cbor(value)))
            }
        }
        return writer.bytes
    }
}
