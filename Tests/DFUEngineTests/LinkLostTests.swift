@testable import DFUEngine
import DFUGATT
import XCTest

/// How GATT failures become flash errors: which ones end the flash, and the hint they carry.
final class LinkLostTests: XCTestCase {
    func testSecurityATTErrorsSayHowToGetAnEncryptedLink() throws {
        for code: UInt8 in [0x05, 0x0C, 0x0F] {
            let error = GATTError(.attError(code: code, handle: 0x10), address: "F0:DF:00:00:01:06",
                                  detail: "Write Request (0x12) on handle 0x0010 failed")
            let lost = LinkLost(error, step: "send 'status'", location: nil)
            let fatal = try XCTUnwrap(lost.fatal)
            XCTAssertEqual(fatal.kind, .device)
            XCTAssertTrue(fatal.message.hasPrefix("send 'status': ATT error 0x"), fatal.message)
            XCTAssertTrue(fatal.hint?.hasPrefix("the device wants an encrypted link: give the profile `security: medium`")
                          ?? false, "\(code)")
        }
        let other = LinkLost(GATTError(.attError(code: 0x03, handle: 0x10), detail: "Write Not Permitted"),
                             step: nil, location: nil)
        XCTAssertNil(other.fatal?.hint)
        XCTAssertNotNil(other.fatal)
        let dropped = LinkLost(GATTError(.disconnected, detail: "gone"), step: nil, location: nil)
        XCTAssertNil(dropped.fatal, "a dropped link may be resumed")
    }
}
