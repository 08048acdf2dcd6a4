import DFUCapture
import XCTest

final class CapturedOperationTests: XCTestCase {
    func testWhoSentEachOperation() {
        XCTAssertTrue(CapturedOperation(time: .zero, kind: .write(handle: 3, value: [1], withResponse: true)).fromClient)
        XCTAssertTrue(CapturedOperation(time: .zero, kind: .mtuExchange(client: 247, server: nil)).fromClient)
        XCTAssertFalse(CapturedOperation(time: .zero, kind: .mtuExchange(client: nil, server: 185)).fromClient)
        XCTAssertFalse(CapturedOperation(time: .zero, kind: .notification(handle: 3, value: [], indication: false)).fromClient)
        XCTAssertEqual(CaptureFormat.btsnoop(datalink: 2001).description, "btsnoop (Linux monitor)")
    }
}
