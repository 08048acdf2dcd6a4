import DFUProfile

/// How a command exchange or a stream ended badly, before the driver adds where it happened.
public enum ExchangeFailure: Error, Sendable, Equatable {
    /// The device answered with a status outside the success values.
    case deviceStatus(DeviceStatus)
    /// No matching response within the timeout, after every attempt.
    case timeout(after: Duration, attempts: Int, ignored: [String])
    /// A response or receipt did not meet an `expect` condition.
    case expectationFailed(expression: String, location: SourceLocation, values: String)
    /// The profile could not be evaluated (a profile bug, or a device value of the wrong shape).
    case evaluation(EvaluationError)
    /// A phase completed earlier in this update is reached again, and the device no longer
    /// shows it done (`done` with the values it saw): it is not repeated.
    case phaseUndone(phase: String, done: String, values: String)

    /// Whether a `retry` block may try again.
    package var isRetryable: Bool {
        switch self {
        case .evaluation, .phaseUndone: return false
        case let .deviceStatus(status): return status.retryable
        default: return true
        }
    }
}

/// A status code from the device, named by the profile's code table when it knows it.
public struct DeviceStatus: Sendable, Equatable, CustomStringConvertible {
    /// The status code the device sent.
    public var code: UInt64
    /// The profile's name for the code, when its code table has one.
    public var name: String?
    /// The profile's explanation of the code, when it has one.
    public var message: String?
    package var detailCode: UInt64?
    package var detailName: String?
    package var detailMessage: String?
    /// False when the profile marks the code (or its detail) `retryable: false`: the device
    /// gives the same answer however often it is asked.
    package var retryable = true
    /// The watched notification that carried it, when the device sent it unasked (`watch: true`).
    package var notification: String?

    public var description: String {
        var text = "status 0x\(String(code, radix: 16, uppercase: true))"
        if let name { text += " (\(name))" }
        if let message { text += ": \(message)" }
        if let detailCode {
            text += "; detail 0x\(String(detailCode, radix: 16, uppercase: true))"
            if let detailName { text += " (\(detailName))" }
            if let detailMessage { text += ": \(detailMessage)" }
        }
        return text
    }

    /// Interprets `fields` with a status spec; nil when the status is a success value.
    static func failure(in fields: [String: Value], spec: StatusSpec, tables: [String: CodeTable]) -> DeviceStatus? {
        guard case let .integer(code)? = lookup(spec.field, in: fields), !spec.success.contains(code) else { return nil }
        let entry = spec.codes.flatMap { tables[$0]?.entries[code] }
        var status = DeviceStatus(code: code, name: entry?.name, message: entry?.message)
        status.retryable = entry?.retryable ?? true
        if let detail = spec.detail, detail.when == code,
           case let .integer(detailCode)? = detail.field.flatMap({ fields[$0] }) ?? fields[MessageDecoder.positionalDetailKey] {
            let detailEntry = detail.codes.flatMap { tables[$0]?.entries[detailCode] }
            status.detailCode = detailCode
            status.detailName = detailEntry?.name
            status.detailMessage = detailEntry?.message
            status.retryable = status.retryable && (detailEntry?.retryable ?? true)
        }
        return status
    }

    /// The first failing status among `specs`.
    static func failure(in fields: [String: Value], specs: [StatusSpec], tables: [String: CodeTable]) -> DeviceStatus? {
        for spec in specs {
            if let failure = failure(in: fields, spec: spec, tables: tables) { return failure }
        }
        return nil
    }

    /// A field, or a path into a decoded CBOR field (`body.err.rc`).
    static func lookup(_ path: String, in fields: [String: Value]) -> Value? {
        let parts = path.split(separator: ".").map(String.init)
        guard let first = parts.first, var value = fields[first] else { return nil }
        for part in parts.dropFirst() {
            guard case let .record(record) = value, let next = record[part] else { return nil }
            value = next
        }
        return value
    }
}

extension ResponseSpec {
    /// `status` then `moreStatuses`.
    var allStatuses: [StatusSpec] { (status.map { [$0] } ?? []) + moreStatuses }
}
