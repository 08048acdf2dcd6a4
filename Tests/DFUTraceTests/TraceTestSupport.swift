import DFUEngine
import DFUProfile
import DFUTrace

enum TraceTestSupport {
    static func profile(_ name: String) throws -> Profile {
        try ProfileLoader.load(path: ProfileLibrary.sourceTreeProfilesDirectory + "/\(name).yaml")
    }

    /// Deterministic bytes, so failures reproduce.
    static func image(size: Int) -> FlashImage {
        FlashImage(name: "application", version: "1.0.0", data: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    }

    /// The decoded message of a reading, or nil.
    static func decoded(_ reading: MessageReading) -> DecodedMessage? {
        if case let .decoded(message) = reading { return message }
        return nil
    }

    static func field(_ message: DecodedMessage?, _ name: String) -> Value? {
        message?.fields.first { $0.name == name }?.value
    }
}

/// Collects trace events (the flash runs in one task).
final class TraceRecorder {
    private(set) var events: [TraceEvent] = []

    func record(_ event: TraceEvent) {
        events.append(event)
    }

    var values: [TraceEvent.Value] {
        events.compactMap { if case let .value(value) = $0.kind { value } else { nil } }
    }

    var messages: [TraceEvent.Message] {
        events.compactMap { if case let .message(message) = $0.kind { message } else { nil } }
    }
}
