import DFUBytes

/// A response as the serial transport serializes it: `nrf_dfu_serial.c` `response_send`
/// (nRF5 SDK 15.0-17.1). The bootloader logic (`SecureDFUBootloader`) answers in the BLE
/// transport's shape (`SecureDFUResponse`: `60 <op> <result>`, then the extended error code,
/// or on success the SELECT and CHECKSUM fields); the serial transport adds on success the
/// fields BLE leaves out:
///
/// - protocol version (`00`): one byte, `NRF_DFU_PROTOCOL_VERSION` = 0x01
///   (`nrf_dfu_req_handler.c` `on_protocol_version_request`, with
///   `NRF_DFU_PROTOCOL_VERSION_MSG` 1 as the serial bootloaders' sdk_config.h sets it);
/// - Get MTU (`07`): u16 little-endian, the transport's `mtu` (`request.mtu.size =
///   p_transport->mtu` in `nrf_dfu_serial_on_packet_received`, echoed by `on_mtu_get_request`);
/// - ping (`09`): the id byte of the request (`on_ping_request`).
///
/// Not modelled: hardware version (`0A`: part, variant, ROM size, RAM size, page size, u32 each,
/// from FICR) and firmware version (`0B`: type u8, version, address, length, from the settings
/// page). They keep the bootloader logic's bare `60 0A 01` / `60 0B 01`; neither nrfutil 6.1.7
/// nor other serial hosts send them.
enum NordicSerialResponse {
    /// `NRF_DFU_PROTOCOL_VERSION` (nrf_dfu_req_handler.c).
    static let protocolVersion: UInt8 = 0x01

    /// The serial bytes (before SLIP) of `answer`, the bootloader logic's answer to `request`
    /// (opcode first), on a transport whose MTU is `mtu`.
    static func serialized(_ answer: [UInt8], request: [UInt8], mtu: Int) -> [UInt8] {
        guard answer.count == 3, answer[0] == SecureDFUOpcode.response.rawValue,
              answer[2] == SecureDFUResult.success.rawValue else { return answer }
        switch SecureDFUOpcode(rawValue: answer[1]) {
        case .protocolVersion:
            return answer + [protocolVersion]
        case .mtuGet:
            var writer = ByteWriter(capacity: 5)
            writer.append(bytes: answer)
            writer.append(UInt16(truncatingIfNeeded: mtu), endianness: .little)
            return writer.bytes
        case .ping:
            // The id byte; a ping without one reads a stale byte of the buffer, modelled as 0.
            return answer + [request.count > 1 ? request[1] : 0]
        default:
            return answer
        }
    }
}
