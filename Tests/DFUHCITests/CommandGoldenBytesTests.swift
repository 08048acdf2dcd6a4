import XCTest
import DFUBytes
import DFUGATT
@testable import DFUHCI

/// Golden bytes printed by Bumble 0.0.236 (`bytes(bumble.hci.HCI_..._Command(...))`, H4 indicator
/// included), e.g. `bytes(HCI_LE_Set_PHY_Command(connection_handle=0x40, all_phys=0, tx_phys=2,
/// rx_phys=2, phy_options=0)).hex()`, pasted as literals.
final class CommandGoldenBytesTests: XCTestCase {
    private func check<Command: HCICommand>(_ command: Command, _ golden: String,
                                            file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(command.packet.h4Bytes.hexString, bytes(golden).hexString, Command.name, file: file, line: line)
        // Decoding mirrors encoding.
        let decoded = try HCICommandPacket(packet: HCIPacket(h4Bytes: bytes(golden))).decode(as: Command.self)
        XCTAssertEqual(decoded, command, file: file, line: line)
    }

    func testParameterlessCommands() throws {
        try check(ResetCommand(), "01 03 0c 00")
        try check(ReadLocalVersionCommand(), "01 01 10 00")
        try check(ReadBufferSizeCommand(), "01 05 10 00")
        try check(LEReadBufferSizeCommand(), "01 02 20 00")
        try check(LEReadLocalSupportedFeaturesCommand(), "01 03 20 00")
        try check(LECreateConnectionCancelCommand(), "01 0e 20 00")
    }

    func testOpcodeSplitsIntoGroupAndCommand() {
        XCTAssertEqual(LESetPHYCommand.opcode.ogf, 0x08)
        XCTAssertEqual(LESetPHYCommand.opcode.ocf, 0x0032)
        XCTAssertEqual(LESetPHYCommand.opcode.rawValue, 0x2032)
        XCTAssertEqual(DisconnectCommand.opcode.description, "0x0406")
    }

    func testEventMasks() throws {
        try check(SetEventMaskCommand(mask: 0x203F_FFFF_FFFF_FFFF), "01 01 0c 08 ff ff ff ff ff ff 3f 20")
        try check(LESetEventMaskCommand(mask: 0x1A1F), "01 01 20 08 1f 1a 00 00 00 00 00 00")
    }

    func testRandomAddressIsSentLeastSignificantByteFirst() throws {
        try check(LESetRandomAddressCommand(address: DeviceAddress(string: "C3:11:22:33:44:55")!),
                  "01 05 20 06 55 44 33 22 11 c3")
    }

    func testScanCommands() throws {
        try check(LESetScanParametersCommand(active: true, interval: 0x60, window: 0x30, ownAddressType: .randomDevice),
                  "01 0b 20 07 01 60 00 30 00 01 00")
        try check(LESetScanEnableCommand(enable: true, filterDuplicates: false), "01 0c 20 02 01 00")
    }

    func testConnectionCommands() throws {
        try check(LECreateConnectionCommand(peerAddressType: .randomDevice, peerAddress: DeviceAddress(string: "F0:01:02:03:04:05")!,
                                            ownAddressType: .randomDevice, scanInterval: 0x60, scanWindow: 0x60,
                                            connectionIntervalMin: 0x18, connectionIntervalMax: 0x28,
                                            maxLatency: 0, supervisionTimeout: 0xC8),
                  "01 0d 20 19 60 00 60 00 00 01 05 04 03 02 01 f0 01 18 00 28 00 00 00 c8 00 00 00 00 00")
        XCTAssertEqual(LECreateConnectionCommand.completion, .commandStatus)
        try check(LEConnectionUpdateCommand(handle: 0x40, connectionParameters: HCIConnectionParameters(
            intervalMin: 6, intervalMax: 12, latency: 0, supervisionTimeout: 0x1F4)),
                  "01 13 20 0e 40 00 06 00 0c 00 00 00 f4 01 00 00 00 00")
        try check(LESetDataLengthCommand(handle: 0x40, txOctets: 251, txTime: 2120), "01 22 20 06 40 00 fb 00 48 08")
        try check(LESetPHYCommand(handle: 0x40), "01 32 20 07 40 00 00 02 02 00 00")
        try check(DisconnectCommand(handle: 0x40, reason: .remoteUserTerminated), "01 06 04 03 40 00 13")
    }

    func testTruncatedCommandParametersAreRefusedWithTheCommandName() {
        XCTAssertThrowsError(try LECreateConnectionCommand(parameters: bytes("60 00 60"))) { error in
            XCTAssertEqual((error as? HCIDecodeError)?.description,
                           "malformed LE Create Connection: not enough bytes at offset 2: needed 2, only 1 available")
        }
        XCTAssertThrowsError(try HCICommandPacket(packet: HCIPacket(type: .command, body: bytes("03 0c 05 00"))))
        XCTAssertThrowsError(try HCICommandPacket(packet: HCIPacket(type: .command, body: bytes("03 0c 00")))
            .decode(as: DisconnectCommand.self))
    }
}
