import DFUBytes

/// A Secure DFU response notification as the BLE transport (nrf_dfu_ble.c,
/// `ble_dfu_req_handler_callback`) serializes it: `60 <request opcode> <result>`, then
///
/// - on an extended error: the extended code (one byte);
/// - on success of SELECT: max size u32, offset u32, CRC32 u32 (little-endian);
/// - on success of CALCULATE CHECKSUM (and a receipt notification): offset u32, CRC32 u32;
/// - nothing else: the BLE transport sends no parameters for protocol version, hardware and
///   firmware version, ping or MTU (only the serial transport does), so those answer `60 op 01`.
package struct SecureDFUResponse: Hashable, Sendable {
    package var opcode: SecureDFUOpcode
    package var outcome: SecureDFUOutcome
    /// u32 fields appended on success.
    package var parameters: [UInt32]

    package init(_ opcode: SecureDFUOpcode, _ outcome: SecureDFUOutcome = .success, parameters: [UInt32] = []) {
        self.opcode = opcode
        self.outcome = outcome
        self.parameters = parameters
    }

    package var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 15)
        writer.append(byte: SecureDFUOpcode.response.rawValue)
        writer.append(byte: opcode.rawValue)
        switch outcome {
        case let .result(result):
            writer.append(byte: result.rawValue)
            if result == .success {
                for parameter in parameters { writer.append(parameter, endianness: .little) }
            }
        case let .extended(code):
            writer.append(byte: SecureDFUResult.extendedError.rawValue)
            writer.append(byte: code.rawValue)
        }
        return writer.bytes
    }
}
