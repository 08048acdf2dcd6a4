/// One AppLoader boot's OTA session as a pure state machine (gecko_sdk 4.4.1
/// `platform/bootloader/communication/apploader/btl_apploader_common.c`, AN1086 "OTA Error
/// Codes"): 0x00 on OTA Control begins (a fresh parser), OTA Data feeds the parser, 0x03 ends
/// (answered with the result), 0x04 asks the device to close the link. Writes are answered with
/// an ATT error code or success.
struct AppLoaderSession: Sendable, Equatable {
    /// What a write leads to.
    enum Answer: Sendable, Equatable, CustomStringConvertible {
        case success
        case refused(AppLoaderError)
        /// 0x04: success, then the device closes the link.
        case close

        var description: String {
            switch self {
            case .success: return "success"
            case let .refused(code): return "ATT error 0x" + String(code.rawValue, radix: 16, uppercase: true)
            case .close: return "success, closes the link"
            }
        }
    }

    private(set) var parser: AppLoaderGBLParser?
    /// Data reached the parser (`started`): a disconnect now is an image error unless verified.
    private(set) var started = false
    /// Program data reached flash at some point of this session (sticky: a new 0x00 does not
    /// unwrite it): the previous application's first page is erased and its reset vector
    /// withheld, so it no longer boots unless an image is verified.
    private(set) var overwroteApplication = false
    /// The OTA Data bytes received since the last 0x00.
    private(set) var received: [UInt8] = []
    let capacity: Int
    let rules: AppLoaderGBLParser.Rules

    init(capacity: Int, rules: AppLoaderGBLParser.Rules = AppLoaderGBLParser.Rules()) {
        self.capacity = capacity
        self.rules = rules
    }

    /// A write of `value` to OTA Control.
    mutating func control(_ value: [UInt8]) -> Answer {
        switch value.first {
        case 0x00:
            // Begin: the parser starts over at the GBL header (`parser_init`).
            parser = AppLoaderGBLParser(capacity: capacity, rules: rules)
            received = []
            return .success
        case 0x03:
            // End (`bootloader_apploader_parser_finish`): completed and verified, or refused.
            guard let parser else { return .refused(.wrongState) }
            if let error = parser.error { return .refused(error) }
            return parser.verified ? .success : .refused(.crcError)
        case 0x04:
            return .close
        default:
            return .success  // reserved control words: nothing documented happens
        }
    }

    /// A write of `value` to OTA Data: the answer a write request gets (a write command gets
    /// none; an error then shows at 0x03).
    mutating func data(_ value: [UInt8]) -> Answer {
        guard var current = parser else { return .refused(.wrongState) }
        started = true
        received += value
        let error = current.feed(value)
        parser = current
        if current.programmed > 0 { overwroteApplication = true }
        return error.map(Answer.refused) ?? .success
    }

    /// The image is complete and verified: the new application boots at the reset.
    var verified: Bool { parser?.verified ?? false }
    var programmedBytes: Int { parser?.programmed ?? 0 }
    var applicationVersion: UInt32? { parser?.applicationVersion }
}
