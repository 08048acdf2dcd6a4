/// The result the OTA server notifies when an OTA ends (`ota_result_t` in the SDK's ota.h,
/// `blt_ota_procOtaResultFeedback`): `u16 0xFF06 | u8 result | u8 0`, little-endian.
package struct TelinkOTAResultNotification: Sendable, Equatable {
    package var result: TelinkOTAResult

    package init(result: TelinkOTAResult) {
        self.result = result
    }

    package init?(bytes: [UInt8]) {
        guard bytes.count >= 3, bytes[0] == 0x06, bytes[1] == 0xFF else { return nil }
        result = TelinkOTAResult(rawValue: bytes[2])
    }

    package var bytes: [UInt8] { [0x06, 0xFF, result.rawValue, 0x00] }
}
