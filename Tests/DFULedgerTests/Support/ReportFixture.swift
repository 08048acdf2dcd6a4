import DFULedger
import Foundation
import XCTest

/// A small line with every kind of outcome, for the golden report files.
enum ReportFixture {
    static let package = "3f2a9c1d5e6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1a2f"
    static let generatedAt = Date(timeIntervalSince1970: 1_714_554_000)  // 2024-05-01T09:00:00Z

    static func attempts() -> [Attempt] {
        let start = LedgerFixtures.start
        func attempt(_ device: Int, _ number: Int, at offset: Double, seconds: Double, bytes: Int, _ result: Attempt.Result,
                     station: String = "line-1", kind: String? = nil, message: String? = nil,
                     serial: String? = nil) -> Attempt {
            Attempt(claimID: "claim-\(device)", device: LedgerFixtures.device(device), serial: serial,
                    packageSHA256: package, profile: "vendor-ctrlpt", station: station,
                    startedAt: start.addingTimeInterval(offset), endedAt: start.addingTimeInterval(offset + seconds),
                    bytes: bytes, result: result, errorKind: kind, errorMessage: message, attemptNumber: number)
        }
        return [
            attempt(1, 1, at: 0, seconds: 12.5, bytes: 245_760, .succeeded, serial: "SN-0001"),
            attempt(2, 1, at: 1, seconds: 30, bytes: 81_920, .failed, station: "line-2", kind: "timeout",
                    message: "no response to 'start' within 30 s"),
            attempt(3, 1, at: 2, seconds: 4.25, bytes: 16_384, .failed, kind: "disconnected",
                    message: "the link dropped at offset 16384"),
            attempt(2, 2, at: 32, seconds: 14, bytes: 245_760, .succeeded, station: "line-2", serial: "SN-0002"),
            attempt(3, 2, at: 7, seconds: 30, bytes: 0, .failed, kind: "timeout", message: "no response to 'status' within 30 s"),
            attempt(4, 1, at: 8, seconds: 3, bytes: 8192, .cancelled),
            attempt(3, 3, at: 38, seconds: 1.5, bytes: 0, .failed, kind: "device-error:0x05",
                    message: "the device answered <invalid object> & \"rejected\" it"),
            attempt(5, 1, at: 40, seconds: 11.75, bytes: 245_760, .succeeded, station: "line-2"),
        ]
    }

    static var report: BatchReport {
        BatchReport(attempts: attempts(), ledger: "sqlite:/var/lib/dfukit/line.sqlite", generatedAt: generatedAt)
    }
}

/// Compares `actual` with the golden file `Fixtures/NAME`. With `DFUKIT_UPDATE_GOLDEN=1` the file
/// is rewritten instead; on a mismatch the actual text is saved next to the temporary directory
/// for `diff`.
func assertGolden(_ actual: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    let url = fixtures.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["DFUKIT_UPDATE_GOLDEN"] == "1" {
        try Data(actual.utf8).write(to: url)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    if expected != actual {
        let saved = (NSTemporaryDirectory() as NSString).appendingPathComponent(name + ".actual")
        try? Data(actual.utf8).write(to: URL(fileURLWithPath: saved))
        XCTFail("\(name) differs from the golden file; compare: diff \(url.path) \(saved)", file: file, line: line)
    }
}
