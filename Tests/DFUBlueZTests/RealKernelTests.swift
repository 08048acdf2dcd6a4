import DFUBlueZ
import DFUGATT
import Glibc
import XCTest

/// The real seam against this machine's kernel. Where the kernel has no Bluetooth (this build
/// machine), every entry point gives the EAFNOSUPPORT message; on a kernel with Bluetooth the
/// test says it was skipped (the VM tests the success path).
final class RealKernelTests: XCTestCase {
    private func requireNoBluetooth() throws {
        let probe = socket(31, Int32(SOCK_SEQPACKET.rawValue), 0)
        if probe >= 0 {
            close(probe)
            throw XCTSkip("this kernel has AF_BLUETOOTH; the no-Bluetooth path is not testable here")
        }
        XCTAssertEqual(errno, EAFNOSUPPORT)
    }

    func testL2CAPSocketWithoutKernelBluetooth() throws {
        try requireNoBluetooth()
        let adapter = BlueZAdapterInfo(index: 0, name: "hci0", address: DeviceAddress(value: 0), isUp: true)
        XCTAssertThrowsError(try BlueZL2CAPBearer.open(adapter: adapter, peer: DeviceAddress(value: 1), peerType: .lePublic)) { error in
            let error = error as! BlueZError
            XCTAssertEqual(error.errno, .addressFamilyNotSupported)
            XCTAssertEqual(error.description, "bluez:hci0: socket: this kernel has no Bluetooth support (no AF_BLUETOOTH); "
                           + "use a kernel with Bluetooth, or hci:tcp:/hci:serial: with a controller DFUKit drives itself "
                           + "(EAFNOSUPPORT)")
        }
    }

    func testTransportWithoutKernelBluetooth() async throws {
        try requireNoBluetooth()
        let transport = try BlueZGATTTransport(adapter: "hci0")
        do {
            _ = try await transport.scan(timeout: .seconds(1))
            XCTFail("scanned")
        } catch {
            XCTAssertEqual(error.kind, .transportUnavailable)
            XCTAssertTrue(error.description.contains("no AF_BLUETOOTH"), error.description)
            XCTAssertTrue(error.description.contains("EAFNOSUPPORT"), error.description)
        }
    }
}
