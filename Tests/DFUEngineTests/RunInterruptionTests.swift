@testable import DFUEngine
import DFUGATT
import XCTest

/// How GATT failures become run interruptions: a lost link (resumable) or a final error, and
/// the hint the final ones carry.
final class RunInterruptionTests: XCTestCase {
    private func finalError(_ interruption: RunInterruption, file: StaticString = #filePath, line: UInt = #line) -> FlashError? {
        guard case let .failed(error) = interruption else {
            XCTFail("expected a final error, got \(interruption)", file: file, line: line)
            return nil
        }
        return error
    }

    func testSecurityATTErrorsSayHowToGetAnEncryptedLink() throws {
        for code: UInt8 in [0x05, 0x0C, 0x0F] {
            let error = GATTError(.attError(code: code, handle: 0x10), address: "F0:DF:00:00:01:06",
                                  detail: "Write Request (0x12) on handle 0x0010 failed")
            let fatal = try XCTUnwrap(finalError(RunInterruption(error, step: "send 'status'", location: nil)))
            XCTAssertEqual(fatal.kind, .device)
            XCTAssertTrue(fatal.message.hasPrefix("send 'status': ATT error 0x"), fatal.message)
            XCTAssertTrue(fatal.hint?.hasPrefix("the device wants an encrypted link: give the profile `security: medium`")
                          ?? false, "\(code)")
        }
        let other = finalError(RunInterruption(GATTError(.attError(code: 0x03, handle: 0x10), detail: "Write Not Permitted"),
                                               step: nil, location: nil))
        XCTAssertNotNil(other)
        XCTAssertNil(other?.hint)
    }

    func testDroppedLinksAndUnansweredRequestsMayBeResumed() {
        for (kind, expected) in [(GATTError.Kind.disconnected, FlashError.Kind.disconnected), (.timeout, .timeout)] {
            guard case let .linkLost(loss) = RunInterruption(GATTError(kind, address: "C0:FF:EE:00:00:01", detail: "gone"),
                                                            step: "send 'data'", location: nil) else {
                return XCTFail("\(kind) is a lost link")
            }
            XCTAssertEqual(loss.kind, expected)
            XCTAssertEqual(loss.step, "send 'data'")
            XCTAssertFalse(loss.detail.hasPrefix("C0:FF:EE:00:00:01"), "the address is not repeated: \(loss.detail)")
        }
        XCTAssertNotNil(finalError(RunInterruption(GATTError(.transportUnavailable, detail: "no adapter"),
                                                   step: nil, location: nil)))
    }
}
