import DFUKit
import Foundation

/// The `error` object of a `--json` result (`OutputSchema`'s "error"): the same keys in every
/// outcome, null where the failure does not say.
enum ErrorJSON {
    /// An engine error: where the device stopped, at which offset and profile step.
    static func object(_ error: FlashError) -> [String: Any] {
        object(kind: error.kind.rawValue, message: error.message, device: error.deviceState, offset: error.offset,
               location: error.location?.description)
    }

    /// A refusal or failure of the library: the engine's error when it ran, else its own.
    static func object(_ error: DFUKitError) -> [String: Any] {
        if let engineError = error.report?.error { return object(engineError) }
        return object(kind: error.kind.rawValue, message: error.message)
    }

    static func object(kind: String, message: String, device: String? = nil, offset: Int? = nil,
                       location: String? = nil) -> [String: Any] {
        ["kind": kind, "message": message, "device": device ?? NSNull(), "offset": offset ?? NSNull(),
         "location": location ?? NSNull()]
    }
}
