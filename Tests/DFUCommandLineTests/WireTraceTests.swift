import Foundation
import XCTest

/// `dfukit profile trace` over a serial line shows the frames themselves: the exact bytes on the
/// line, framing included, next to the messages they carry.
final class WireTraceTests: XCTestCase {
    func testTheTraceShowsTheConsoleFramesAsSMPClientsSendThem() throws {
        let result = try DFUKitBinary.run(["profile", "trace", "profiles/mcumgr-smp.yaml",
                                           "firmware-samples/mcuboot/app-ecdsa-p256.bin",
                                           "--device", "sim:mcumgr-smp?link=uart", "--json"],
                                          in: DFUKitBinary.repositoryRoot.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        let events = try result.stdoutLines.compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let frames = events.filter { $0["event"] as? String == "wire" }
        // smpmgr 0.19.1 sends the same params request (sequence 0) as these bytes
        // (scripts/serial-peers.md): marker 06 09, base64 of length, packet and CRC-16, newline.
        XCTAssertEqual(frames.first?["direction"] as? String, "write")
        XCTAssertEqual(frames.first?["hex"] as? String, "06094141734941414142414141414271427a45773d3d0a")
        XCTAssertTrue(frames.contains { $0["direction"] as? String == "notify" }, "the device's frames too")
        XCTAssertEqual(events.last?["status"] as? String, "verified")
    }
}
