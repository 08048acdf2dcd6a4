import DFUWire
import XCTest

/// Collects at least `count` bytes from `wire`, failing the test when they do not come within
/// `timeout`.
func receiveBytes(_ count: Int, from wire: any ByteWire, within timeout: Duration = .seconds(2),
                  file: StaticString = #filePath, line: UInt = #line) async throws -> [UInt8] {
    let deadline = wire.now + timeout
    var received: [UInt8] = []
    while received.count < count {
        guard let bytes = try await wire.receive(until: deadline) else {
            XCTFail("\(wire.description): \(received.count) of \(count) bytes within \(timeout)", file: file, line: line)
            return received
        }
        received += bytes
    }
    return received
}

/// A fresh directory under the temporary directory, removed when the test ends.
func temporaryDirectory(_ test: XCTestCase, _ name: String = #function) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("DFUSerialTests-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// Every byte value a line discipline would act on in cooked mode: NUL, ^C (VINTR), XON/XOFF,
/// CR, LF, ^D (VEOF), ^Z (VSUSP), ^\ (VQUIT), DEL (VERASE), ^U (VKILL), and 0xFF.
let lineDisciplineBytes: [UInt8] = [0x00, 0x0A, 0x0D, 0x03, 0x11, 0x13, 0x04, 0x1A, 0x1C, 0x7F, 0x15, 0x0D, 0x0A, 0xFF, 0x00]
