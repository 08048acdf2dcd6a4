@testable import DFUBlueZ
import DFUBytes
import DFUGATT
import DFUHCI
import XCTest

final class BlueZGATTTransportTests: XCTestCase {
    static let adapter = BlueZAdapterInfo(index: 0, name: "hci0", address: DeviceAddress(string: "00:1A:7D:DA:71:13")!,
                                          isUp: true)
    static let device = DeviceAddress(string: "F0:01:02:03:04:05")!
    static let other = DeviceAddress(string: "00:11:22:33:44:55")!
    /// SOCK_RAW | SOCK_CLOEXEC.
    static let raw = Int32(3) | Int32(0o2000000)

    /// An HCI event packet as a raw HCI socket reads it: 0x04, LE Meta, length, subevent 0x02.
    static func reportPacket(_ reports: [LEAdvertisingReportEvent.Report]) -> [UInt8] {
        let parameters = LEAdvertisingReportEvent(reports: reports).parameters
        return [0x04, 0x3E, UInt8(parameters.count + 1), 0x02] + parameters
    }

    static let advertisingPackets: [[UInt8]] = [
        // ADV_IND from a random address: flags, 16-bit UUID 0xFE59 (Nordic DFU).
        reportPacket([.init(eventType: .connectableUndirected, addressType: .randomDevice, address: device,
                            data: [0x02, 0x01, 0x06, 0x03, 0x03, 0x59, 0xFE], rssi: -60)]),
        // Its scan response: the complete name; and a beacon that cannot be connected to.
        reportPacket([.init(eventType: .scanResponse, addressType: .randomDevice, address: device,
                            data: [0x08, 0x09] + Array("DfuTarg".utf8), rssi: -58),
                      .init(eventType: .nonConnectableUndirected, addressType: .publicDevice, address: other,
                            data: [0x02, 0x01, 0x04], rssi: -80)]),
        // Not an advertising report (Command Complete), and a truncated report: ignored.
        [0x04, 0x0E, 0x04, 0x01, 0x0B, 0x20, 0x00],
        [0x04, 0x3E, 0x03, 0x02, 0x01, 0x00],
    ]

    func testScanSyscallsAndParsedAdvertisements() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets(Self.advertisingPackets)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        XCTAssertEqual(transport.name, "bluez:hci0")
        let found = try await transport.scan(timeout: .milliseconds(150))
        XCTAssertEqual(found, [Advertisement(address: Self.device, name: "DfuTarg",
                                             serviceUUIDs: [BluetoothUUID(littleEndianBytes: [0x59, 0xFE])!], rssi: -58)])
        XCTAssertEqual(fake.callsWithoutReads, [
            .socket(domain: 31, type: Self.raw, protocol: 1),
            .adapterInfo(10, index: 0),
            .bind(10, [31, 0, 0, 0, 0, 0]),   // sockaddr_hci: AF_BLUETOOTH, hci0, HCI_CHANNEL_RAW
            .leSetScanEnable(10, enable: false, filterDuplicates: false),
            .leSetScanParameters(10, active: true, interval: 0x0010, window: 0x0010),
            // hci_filter: HCI event packets; event 0x3E (bit 30 of the second word); no opcode.
            .setSocketOption(10, level: 0, option: 2, [0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0]),
            .leSetScanEnable(10, enable: true, filterDuplicates: false),
            .leSetScanEnable(10, enable: false, filterDuplicates: false),
            .close(10),
        ])
        XCTAssertEqual(transport.addressTypes(for: Self.device), [.leRandom])
        XCTAssertEqual(transport.addressTypes(for: Self.other), [.lePublic])
        // A Nordic bootloader on address + 1: the application's type first.
        XCTAssertEqual(transport.addressTypes(for: Self.device.adding(1)), [.leRandom, .lePublic])
        XCTAssertNil(transport.addressTypes(for: DeviceAddress(string: "12:34:56:78:9A:BC")!))
    }

    func testScanResultsIgnoreOtherPackets() {
        var results = BlueZScanResults()
        for packet in Self.advertisingPackets { results.add(hciPacket: packet) }
        XCTAssertEqual(results.ignoredPacketCount, 2)
        XCTAssertEqual(results.order, [Self.device, Self.other])
        XCTAssertEqual(results.devices[Self.other]?.isConnectable, false)
        XCTAssertEqual(results.addressType(of: Self.device), .leRandom)
    }

    func testAdapterErrors() async throws {
        let permission = "not permitted: needs CAP_NET_RAW and CAP_NET_ADMIN: run as root or "
            + "`sudo setcap cap_net_raw,cap_net_admin+eip $(which dfukit)`"
        let down = BlueZAdapterInfo(index: 0, name: "hci0", address: Self.adapter.address, isUp: false)
        let cases: [(FakeBlueZSyscalls, String)] = [
            ({ let fake = FakeBlueZSyscalls(); fake.fail(.socket, with: .addressFamilyNotSupported, .addressFamilyNotSupported); return fake }(),
             "transport unavailable: bluez:hci0: socket: this kernel has no Bluetooth support (no AF_BLUETOOTH)"),
            (FakeBlueZSyscalls(), "transport unavailable: bluez:hci0: HCIGETDEVINFO: no adapter hci0 (ENODEV)"),
            (FakeBlueZSyscalls(adapters: [down]),
             "transport unavailable: bluez:hci0: HCIGETDEVINFO: adapter hci0 is down; run `btmgmt -i hci0 power on` (ENETDOWN)"),
            ({ let fake = FakeBlueZSyscalls(adapters: [Self.adapter]); fake.fail(.bind, with: .operationNotPermitted, .operationNotPermitted); return fake }(),
             "transport unavailable: bluez:hci0: bind: \(permission) (EPERM)"),
            ({ let fake = FakeBlueZSyscalls(adapters: [Self.adapter]); fake.fail(.leSetScanParameters, with: .permissionDenied, .permissionDenied); return fake }(),
             "transport unavailable: bluez:hci0: LE Set Scan Parameters: \(permission) (EACCES)"),
        ]
        for (fake, message) in cases {
            let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
            do {
                _ = try await transport.scan(timeout: .milliseconds(50))
                XCTFail("scanned: \(message)")
            } catch {
                XCTAssertEqual(error.kind, .transportUnavailable)
                XCTAssertTrue(error.description.hasPrefix(message), "\(error.description)\n  vs \(message)")
            }
            // A refused scan does not stop a connect (testConnectWithoutScanPermission); an
            // adapter that is missing or down does.
            if !message.contains("bind") && !message.contains("LE Set Scan") {
                do {
                    _ = try await transport.connect(to: Self.device, timeout: .milliseconds(50))
                    XCTFail("connected: \(message)")
                } catch {
                    XCTAssertEqual(error.kind, .transportUnavailable)
                    XCTAssertTrue(error.description.hasPrefix(message), "\(error.description)\n  vs \(message)")
                }
            }
            XCTAssertFalse(fake.isOpen(10) || fake.isOpen(11), "the HCI sockets are closed: \(message)")
        }
    }

    func testAdapterNameIsValidated() {
        for bad in ["", "hci", "hciX", "hci-1", "usb0", "hci01"] {
            XCTAssertFalse(BlueZGATTTransport.isValidAdapterName(bad), bad)
            XCTAssertThrowsError(try BlueZGATTTransport(adapter: bad, syscalls: FakeBlueZSyscalls()))
        }
        XCTAssertTrue(BlueZGATTTransport.isValidAdapterName("hci12"))
    }

    /// Exchange MTU Response with a server MTU of 247.
    static let attServer: @Sendable ([UInt8]) -> [UInt8]? = { pdu in
        pdu.first == 0x02 ? [0x03, 0xF7, 0x00] : nil
    }

    func testConnectUsesTheScannedAddressTypeAndExchangesMTU() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets(Self.advertisingPackets)
        fake.setResponder(Self.attServer)
        let transport = try BlueZGATTTransport(adapter: "hci0", security: .medium, syscalls: fake)
        let link = try await transport.connect(to: Self.device, timeout: .seconds(1))
        XCTAssertEqual(link.mtu, 247)
        let connects = fake.calls.compactMap { call -> [UInt8]? in
            if case let .connect(_, address) = call { return address } else { return nil }
        }
        XCTAssertEqual(connects, [[31, 0, 0, 0, 0x05, 0x04, 0x03, 0x02, 0x01, 0xF0, 4, 0, 2, 0]])
        XCTAssertTrue(fake.calls.contains { if case .setSocketOption(_, 274, 4, [2, 0]) = $0 { return true } else { return false } })
        XCTAssertTrue(fake.calls.contains { if case let .write(_, pdu) = $0 { return pdu.first == 0x02 } else { return false } })
        XCTAssertGreaterThan(transport.now, .zero)
        await link.disconnect()
    }

    func testUnknownAddressTypeTriesPublicThenRandom() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setResponder(Self.attServer)
        fake.fail(.connect, with: .timedOut)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        let link = try await transport.connect(to: Self.device, timeout: .milliseconds(100))
        let types = fake.calls.compactMap { call -> UInt8? in
            if case let .connect(_, address) = call { return address[12] } else { return nil }
        }
        XCTAssertEqual(types, [1, 2])
        await link.disconnect()
    }

    /// After the application rebooted into a Nordic bootloader on address + 1, which is not
    /// (yet) heard: the application's address type is tried first, then the other.
    func testBootloaderOnAddressPlusOneGetsTheApplicationsAddressType() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets(Self.advertisingPackets)
        fake.setResponder(Self.attServer)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        _ = try await transport.scan(timeout: .milliseconds(50))
        fake.setAdvertisingPackets([])
        fake.fail(.connect, with: .hostUnreachable)
        let link = try await transport.connect(to: Self.device.adding(1), timeout: .milliseconds(100))
        XCTAssertEqual(link.address, DeviceAddress(string: "F0:01:02:03:04:06"))
        let connects = fake.calls.compactMap { call -> [UInt8]? in
            if case let .connect(_, address) = call { return address } else { return nil }
        }
        XCTAssertEqual(connects, [[31, 0, 0, 0, 0x06, 0x04, 0x03, 0x02, 0x01, 0xF0, 4, 0, 2, 0],
                                  [31, 0, 0, 0, 0x06, 0x04, 0x03, 0x02, 0x01, 0xF0, 4, 0, 1, 0]])
        await link.disconnect()
    }

    /// Scanning needs CAP_NET_RAW but an L2CAP connect does not: a refused scan does not stop
    /// a connect.
    func testConnectWithoutScanPermission() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setResponder(Self.attServer)
        fake.fail(.leSetScanParameters, with: .operationNotPermitted)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        let link = try await transport.connect(to: Self.device, timeout: .milliseconds(100))
        XCTAssertEqual(link.mtu, 247)
        await link.disconnect()
    }

    func testConnectFailureNamesTheDevice() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets(Self.advertisingPackets)
        fake.fail(.connect, with: .timedOut)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        do {
            _ = try await transport.connect(to: Self.device, timeout: .milliseconds(100))
            XCTFail("connected")
        } catch {
            XCTAssertEqual(error.kind, .connectionFailed)
            XCTAssertEqual(error.address, "F0:01:02:03:04:05")
            XCTAssertTrue(error.detail.hasSuffix("(ETIMEDOUT)"), error.detail)
        }
    }
}
