import XCTest
import DFUBytes
import DFUGATT
@testable import DFUHCI

/// Golden bytes printed by Bumble 0.0.236 (`bytes(bumble.hci.HCI_..._Event(...))`).
final class EventGoldenBytesTests: XCTestCase {
    /// Decodes `golden`, checks it against `expected`, and re-encodes it byte for byte.
    private func check(_ golden: String, _ expected: HCIEvent, file: StaticString = #filePath, line: UInt = #line) throws {
        let packet = try HCIPacket(h4Bytes: bytes(golden))
        XCTAssertEqual(try HCIEvent(packet: packet), expected, file: file, line: line)
        XCTAssertEqual(expected.packet.h4Bytes.hexString, bytes(golden).hexString, file: file, line: line)
    }

    func testCommandCompleteAndStatus() throws {
        try check("04 0e 04 01 03 0c 00", .commandComplete(CommandCompleteEvent(opcode: ResetCommand.opcode, status: .success)))
        try check("04 0f 04 00 01 0d 20", .commandStatus(CommandStatusEvent(status: .success, opcode: LECreateConnectionCommand.opcode)))
    }

    func testReturnParameters() throws {
        guard case let .commandComplete(buffer) = try HCIEvent(packet: HCIPacket(h4Bytes: bytes("04 0e 07 01 02 20 00 1b 00 40"))) else {
            return XCTFail("not a Command Complete")
        }
        XCTAssertEqual(buffer.status, .success)
        XCTAssertEqual(try LEReadBufferSizeCommand.ReturnParameters(returnParameters: buffer.parametersAfterStatus),
                       LEReadBufferSizeCommand.ReturnParameters(aclDataPacketLength: 27, totalACLDataPackets: 64))

        guard case let .commandComplete(version) = try HCIEvent(packet: HCIPacket(h4Bytes: bytes("04 0e 0c 01 01 10 00 09 34 12 09 ff ff 78 56"))) else {
            return XCTFail("not a Command Complete")
        }
        let parsed = try ReadLocalVersionCommand.ReturnParameters(returnParameters: version.parametersAfterStatus)
        XCTAssertEqual(parsed, ReadLocalVersionCommand.ReturnParameters(hciVersion: 9, hciSubversion: 0x1234, lmpVersion: 9,
                                                                        companyIdentifier: 0xFFFF, lmpSubversion: 0x5678))
        XCTAssertEqual(parsed.encoded, version.parametersAfterStatus)

        guard case let .commandComplete(sizes) = try HCIEvent(packet: HCIPacket(h4Bytes: bytes("04 0e 0b 01 05 10 00 fd 03 40 08 00 04 00"))) else {
            return XCTFail("not a Command Complete")
        }
        XCTAssertEqual(try ReadBufferSizeCommand.ReturnParameters(returnParameters: sizes.parametersAfterStatus),
                       ReadBufferSizeCommand.ReturnParameters(aclDataPacketLength: 1021, synchronousDataPacketLength: 64,
                                                              totalACLDataPackets: 8, totalSynchronousDataPackets: 4))

        guard case let .commandComplete(features) = try HCIEvent(packet: HCIPacket(h4Bytes: bytes("04 0e 0c 01 03 20 00 21 01 00 00 00 00 00 00"))) else {
            return XCTFail("not a Command Complete")
        }
        let set = try LEReadLocalSupportedFeaturesCommand.ReturnParameters(returnParameters: features.parametersAfterStatus).features
        XCTAssertEqual(set, [.encryption, .dataPacketLengthExtension, .twoMegabitPHY])
    }

    func testDisconnectionAndCompletedPackets() throws {
        try check("04 05 04 00 40 00 13", .disconnectionComplete(DisconnectionCompleteEvent(handle: 0x40, reason: .remoteUserTerminated)))
        // Arrays interleaved: handle, count, handle, count.
        try check("04 13 09 02 40 00 03 00 41 00 01 00", .numberOfCompletedPackets(NumberOfCompletedPacketsEvent(
            entries: [.init(handle: 0x40, completedPackets: 3), .init(handle: 0x41, completedPackets: 1)])))
    }

    func testConnectionCompleteLegacyAndEnhanced() throws {
        try check("04 3e 13 01 00 40 00 00 01 05 04 03 02 01 f0 18 00 00 00 c8 00 00",
                  .leConnectionComplete(LEConnectionCompleteEvent(
                    status: .success, handle: 0x40, role: .central, peerAddressType: .randomDevice,
                    peerAddress: DeviceAddress(string: "F0:01:02:03:04:05")!, interval: 0x18, latency: 0,
                    supervisionTimeout: 0xC8)))
        let zero = DeviceAddress(value: 0)
        try check("04 3e 1f 0a 00 41 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 28 00 00 00 f4 01 01",
                  .leConnectionComplete(LEConnectionCompleteEvent(
                    status: .success, handle: 0x41, role: .central, peerAddressType: .publicDevice,
                    peerAddress: DeviceAddress(value: 1), interval: 0x28, latency: 0, supervisionTimeout: 0x1F4,
                    centralClockAccuracy: 1, resolvablePrivateAddresses: (zero, zero))))
    }

    func testAdvertisingReportsBothKinds() throws {
        let data = bytes("02 01 06 0b 09 44 46 55 2d 42 55 4d 42 4c 45 05 03 0d 18 0f 18")
        try check("04 3e 21 02 01 00 01 05 04 03 02 01 f0 15 02 01 06 0b 09 44 46 55 2d 42 55 4d 42 4c 45 05 03 0d 18 0f 18 ce",
                  .leAdvertisingReport(LEAdvertisingReportEvent(reports: [
                    .init(eventType: .connectableUndirected, addressType: .randomDevice,
                          address: DeviceAddress(string: "F0:01:02:03:04:05")!, data: data, rssi: -50)])))
        let extended = bytes("04 08 44 46 55 11 07 6f 5e 4d 3c 2b 1a 52 9c 8a 4b 3c 7e 00 00 f1 d0")
        try check("04 3e 31 0d 01 13 00 00 01 00 00 00 00 00 01 00 00 7f c4 00 00 00 00 00 00 00 00 00 17 "
                  + "04 08 44 46 55 11 07 6f 5e 4d 3c 2b 1a 52 9c 8a 4b 3c 7e 00 00 f1 d0",
                  .leExtendedAdvertisingReport(LEExtendedAdvertisingReportEvent(reports: [
                    .init(eventType: [.connectable, .scannable, .legacyPDU], addressType: .publicDevice,
                          address: DeviceAddress(value: 1), primaryPHY: 1, secondaryPHY: 0, advertisingSID: 0,
                          txPower: 127, rssi: -60, data: extended)])))
    }

    func testConnectionUpdateDataLengthAndPHY() throws {
        try check("04 3e 0a 03 00 40 00 06 00 00 00 f4 01", .leConnectionUpdateComplete(LEConnectionUpdateCompleteEvent(
            status: .success, handle: 0x40, interval: 6, latency: 0, supervisionTimeout: 0x1F4)))
        try check("04 3e 0b 07 40 00 fb 00 48 08 fb 00 48 08", .leDataLengthChange(LEDataLengthChangeEvent(
            handle: 0x40, maxTxOctets: 251, maxTxTime: 2120, maxRxOctets: 251, maxRxTime: 2120)))
        try check("04 3e 06 0c 00 40 00 02 02", .lePHYUpdateComplete(LEPHYUpdateCompleteEvent(
            status: .success, handle: 0x40, txPHY: 2, rxPHY: 2)))
    }

    func testUnknownEventsAreKeptAndMalformedOnesRefused() throws {
        XCTAssertEqual(try HCIEvent(packet: HCIPacket(type: .event, body: bytes("10 01 00"))), .other(code: 0x10, parameters: [0]))
        XCTAssertEqual(try HCIEvent(packet: HCIPacket(type: .event, body: bytes("3e 02 14 01"))),
                       .leMetaOther(subeventCode: 0x14, parameters: [1]))
        // Length byte disagrees with the parameters present.
        XCTAssertThrowsError(try HCIEvent(packet: HCIPacket(type: .event, body: bytes("0e 05 01 03 0c"))))
        // A truncated connection complete names itself.
        XCTAssertThrowsError(try HCIEvent(packet: HCIPacket(type: .event, body: bytes("3e 04 01 00 40 00")))) { error in
            XCTAssertTrue("\(error)".hasPrefix("malformed LE Connection Complete"), "\(error)")
        }
        XCTAssertThrowsError(try HCIEvent(packet: HCIPacket(type: .event, body: bytes("3e 00"))))
    }

    func testStatusCodesAreOpen() {
        XCTAssertEqual(HCIStatus.remoteUserTerminated.description, "remote user terminated connection (0x13)")
        XCTAssertEqual(HCIStatus(rawValue: 0x99).description, "HCI status 0x99")
    }
}
