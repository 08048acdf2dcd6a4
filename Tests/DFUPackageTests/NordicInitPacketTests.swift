import DFUBytes
import DFUPackage
import XCTest

/// `NordicInitPacket` and `LegacyInitPacket` on annotated bytes: nrfutil's own output, hand-built
/// packets with unpacked fields, unknown fields and unknown enum values, and malformed packets.
final class NordicInitPacketTests: XCTestCase {
    private func bytes(_ hex: String) throws -> [UInt8] { try XCTUnwrap([UInt8](hex: hex)) }

    private func decodeError(_ hex: String, file: StaticString = #filePath, line: UInt = #line) -> NordicInitPacketError? {
        do {
            _ = try NordicInitPacket(decoding: try XCTUnwrap([UInt8](hex: hex)))
            XCTFail("\(hex) decoded", file: file, line: line)
            return nil
        } catch let error as NordicInitPacketError {
            return error
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return nil
        }
    }

    /// The unsigned `app.dat` nrfutil 6.1.7 wrote for app-unsigned.zip, field by field.
    static let unsignedInitCommandHex =
        "0803" + "1034" + "1a02b701" + "2000" + "2800" + "3000" + "38e4c001"   // fw 3, hw 52, sd_req [0xB7], APPLICATION, 0, 0, app 24676
        + "4224" + "0803" + "1220" + "bcb22f6be4d93e0787bdb1b25b23379e7d53f637c85408f26f537fccdc504f95"  // hash SHA256
        + "4800" + "5204" + "0801" + "1200"                                      // is_debug false, boot_validation CRC
    static let unsignedPacketHex = "0a44" + "0801" + "1240" + unsignedInitCommandHex

    func testUnsignedPacketFromNrfutilGoldenBytes() throws {
        let packet = try NordicInitPacket(decoding: try bytes(Self.unsignedPacketHex))
        XCTAssertEqual(packet.bytes, try NordicSamples.entry("app.dat", of: NordicSamples.unsignedApplication))
        XCTAssertEqual(packet.opCode, .initialize)
        XCTAssertFalse(packet.isSignedCommand)
        XCTAssertFalse(packet.isSigned)
        XCTAssertNil(packet.signature)
        XCTAssertEqual(packet.initCommandBytes.hexString, Self.unsignedInitCommandHex)
        let command = packet.initCommand
        XCTAssertEqual(command.firmwareVersion, 3)
        XCTAssertEqual(command.hardwareVersion, 52)
        XCTAssertEqual(command.softDeviceRequirements, [0xB7])
        XCTAssertEqual(command.type, .application)
        XCTAssertEqual(command.softDeviceSize, 0)
        XCTAssertEqual(command.bootloaderSize, 0)
        XCTAssertEqual(command.applicationSize, 24676)
        XCTAssertEqual(command.hash?.type, .sha256)
        XCTAssertEqual(command.hash?.bytes.hexString, "bcb22f6be4d93e0787bdb1b25b23379e7d53f637c85408f26f537fccdc504f95")
        XCTAssertEqual(command.hash?.conventionalOrder.hexString,
                       "954f50dccc7f536ff20854c837f6537d9e37235bb2b1bd87073ed9e46b2fb2bc")
        XCTAssertEqual(command.isDebug, false)
        XCTAssertEqual(command.bootValidations, [NordicBootValidation(type: .generatedCRC, bytes: [])])
        XCTAssertFalse(packet.verifySignature(publicKeyDER: try PEM.decode(try NordicSamples.signingKey()).der))
    }

    func testUnpackedRepeatedFieldsUnknownFieldsAndUnknownEnumValues() throws {
        let initCommand = "1a02b701" + "18cb01" + "18fe ff03".replacingOccurrences(of: " ", with: "")  // packed B7, then CB and FFFE unpacked
            + "2009"                                      // type 9: unknown
            + "7801" + "8201" + "03616263" + "8d0101020304" // unknown fields 15 (varint), 16 (bytes), 17 (fixed32)
            + "4802"                                      // is_debug: any non-zero varint is true
            + "5206" + "0802" + "1202abcd"                // boot_validation SHA256 with bytes
            + "5202" + "0863"                             // boot_validation type 99: unknown
        let command = "0801" + "12" + String(format: "%02x", initCommand.count / 2) + initCommand + "2805"  // + unknown field 5
        let packet = try NordicInitPacket(decoding: try bytes("0a" + String(format: "%02x", command.count / 2) + command))
        XCTAssertEqual(packet.initCommand.softDeviceRequirements, [0xB7, 0xCB, 0xFFFE])
        XCTAssertEqual(packet.initCommand.type, NordicFirmwareType(rawValue: 9))
        XCTAssertEqual(packet.initCommand.type?.name, "unknown(9)")
        XCTAssertEqual(packet.initCommand.isDebug, true)
        XCTAssertNil(packet.initCommand.firmwareVersion)
        XCTAssertNil(packet.initCommand.hash)
        XCTAssertEqual(packet.initCommand.bootValidations, [
            NordicBootValidation(type: .sha256, bytes: [0xAB, 0xCD]),
            NordicBootValidation(type: NordicValidationType(rawValue: 99), bytes: []),
        ])
        XCTAssertEqual(packet.initCommand.bootValidations.last?.type.description, "unknown(99)")
        XCTAssertEqual(packet.initCommandBytes.hexString, initCommand)
        XCTAssertFalse(packet.hashMatches(firmware: [1, 2, 3]))
    }

    func testNegativeEnumValueIsKeptByNumber() throws {
        // SignedCommand { command { op_code -1 (ten-byte varint), init {} }, signature_type 7, signature 01 }
        let command = "08ffffffffffffffffff01" + "1200"
        let signed = "0a0d" + command + "1007" + "1a0101"
        let packet = try NordicInitPacket(decoding: try bytes("1214" + signed))
        XCTAssertEqual(packet.opCode, NordicOpCode(rawValue: -1))
        XCTAssertEqual(packet.opCode?.name, "unknown(-1)")
        XCTAssertEqual(packet.signatureType?.name, "unknown(7)")
        XCTAssertTrue(packet.isSigned)
        XCTAssertEqual(packet.initCommand, NordicInitCommand())
        XCTAssertFalse(packet.verifySignature(publicKeyDER: try PEM.decode(try NordicSamples.signingKey()).der))
    }

    func testMalformedPacketsAreTypedErrors() {
        XCTAssertEqual(decodeError(""), .empty)
        XCTAssertEqual(decodeError("0a05080112"), .malformed(.lengthPastEnd(offset: 2, length: 5, available: 3)))
        XCTAssertEqual(decodeError("0a0408011202"), .malformed(.lengthPastEnd(offset: 6, length: 2, available: 0)))
        XCTAssertEqual(decodeError("0a050801120108"), .malformed(.truncatedVarint(offset: 7)))
        XCTAssertEqual(decodeError("0a020801"), .missingField("Command.init"))
        XCTAssertEqual(decodeError("1802"), .missingField("Packet.command (or Packet.signed_command)"))
        XCTAssertEqual(decodeError("12021002"), .missingField("SignedCommand.command"))
        XCTAssertEqual(decodeError("0801"), .wrongWireType(field: "Packet.command", expected: .lengthDelimited, found: .varint, offset: 0))
        // fw_version as bytes; fw_version 2^32; hash without hash_type.
        XCTAssertEqual(decodeError("0a0608011202" + "0a00"),
                       .wrongWireType(field: "InitCommand.fw_version", expected: .varint, found: .lengthDelimited, offset: 6))
        XCTAssertEqual(decodeError("0a0a08011206" + "088080808010"),
                       .valueOutOfRange(field: "InitCommand.fw_version", value: 1 << 32, offset: 6))
        XCTAssertEqual(decodeError("0a0808011204" + "42021200"), .missingField("Hash.hash_type"))
        XCTAssertEqual(NordicInitPacketError.malformed(.truncatedVarint(offset: 6)).description,
                       "the init packet is not valid protobuf: offset 6: the input ends inside a varint")
    }

    func testECDSASignatureIsConvertedToBigEndianRS() throws {
        let packet = try NordicInitPacket(decoding: try NordicSamples.entry("app.dat", of: NordicSamples.signedApplication))
        let stored = try XCTUnwrap(packet.signature)
        XCTAssertEqual(stored.count, 64)
        let raw = try XCTUnwrap(packet.ecdsaSignatureBigEndian)
        XCTAssertEqual(Array(raw[0..<32]), Array(stored[0..<32].reversed()))
        XCTAssertEqual(Array(raw[32..<64]), Array(stored[32..<64].reversed()))
        let key = try PEM.decode(try NordicSamples.signingKey()).der
        XCTAssertTrue(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: packet.initCommandBytes,
                                                            signature: raw, format: .raw))
        // The stored (little-endian) order itself does not verify: the conversion matters.
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: packet.initCommandBytes,
                                                             signature: stored, format: .raw))
        XCTAssertTrue(packet.verifySignature(publicKeyDER: key))
        XCTAssertFalse(packet.verifySignature(publicKeyDER: try PEM.decode(try NordicSamples.wrongKey()).der))
        XCTAssertFalse(packet.verifySignature(publicKeyDER: [1, 2, 3]))
        XCTAssertThrowsError(try packet.checkSignature(publicKeyDER: [1, 2, 3]))
    }

    func testHashIsTheByteReversedSHA256() throws {
        let firmware = Array("123456789".utf8)
        XCTAssertEqual(NordicInitPacket.expectedHash(of: firmware).hexString,
                       "25b28e4412338cbc5fc694ce20e3200c4219c49e60eff1b0eb9138c3d3b0e215")
        let hash = NordicHash(type: .sha256, bytes: NordicInitPacket.expectedHash(of: firmware))
        XCTAssertTrue(hash.matches(firmware: firmware))
        XCTAssertFalse(hash.matches(firmware: Array("123456788".utf8)))
        XCTAssertFalse(NordicHash(type: .crc, bytes: hash.bytes).matches(firmware: firmware))
    }

    func testLegacyInitPacketGoldenBytes() throws {
        // adafruit-nrfutil dfu genpkg --dev-type 0x0052 --sd-req 0xFFFE: legacy-app.dat.
        let stored = try NordicSamples.entry("legacy-app.dat", of: NordicSamples.legacyApplication)
        XCTAssertEqual(stored.hexString, "5200" + "ffff" + "ffffffff" + "0100" + "feff" + "4342")
        let packet = try LegacyInitPacket(decoding: stored)
        XCTAssertEqual(packet.deviceType, 0x0052)
        XCTAssertEqual(packet.deviceRevision, 0xFFFF)
        XCTAssertEqual(packet.applicationVersion, 0xFFFF_FFFF)
        XCTAssertEqual(packet.softDeviceRequirements, [0xFFFE])
        XCTAssertEqual(packet.firmwareCRC16, 0x4243)
        XCTAssertEqual(packet.trailingBytes, [])
        let firmware = try NordicSamples.entry("legacy-app.bin", of: NordicSamples.legacyApplication)
        XCTAssertEqual(CRC16CCITTFalse.checksum(firmware), 0x4243)
        XCTAssertTrue(packet.crcMatches(firmware: firmware))
        XCTAssertFalse(packet.crcMatches(firmware: NordicSamples.flip(firmware, at: 100)))
    }

    func testLegacyInitPacketTooShort() {
        XCTAssertThrowsError(try LegacyInitPacket(decoding: [])) { XCTAssertEqual($0 as? NordicInitPacketError, .empty) }
        // Two sd_req entries announced, one present.
        XCTAssertThrowsError(try LegacyInitPacket(decoding: [0x52, 0, 0xFF, 0xFF, 1, 0, 0, 0, 2, 0, 0xFE, 0xFF, 0x43, 0x42])) {
            XCTAssertEqual($0 as? NordicInitPacketError, .legacyTooShort(byteCount: 14, needed: 16))
        }
        XCTAssertThrowsError(try LegacyInitPacket(decoding: [0x52, 0, 0xFF])) {
            guard case .legacyTooShort(3, _)? = $0 as? NordicInitPacketError else { return XCTFail("\($0)") }
        }
    }
}
