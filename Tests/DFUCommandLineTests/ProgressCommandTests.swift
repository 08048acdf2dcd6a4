import Foundation
import XCTest

/// `dfukit flash` progress under a terminal: one line redrawn in place (`script` from
/// util-linux gives the command a pseudo-terminal).
final class ProgressCommandTests: XCTestCase {
    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    func testTerminalProgressIsOneLineRedrawnInPlace() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("util-linux's script(1) is not installed (apt-get install bsdutils)")
        }
        let directory = try TemporaryDirectory()
        let size = 20_000
        let package = try PackageCommandTests.makePackage(in: directory, size: size)
        let binary = try DFUKitBinary.located.get().path
        let command = [binary, "flash", "-p", "vendor-ctrlpt", "-d", "sim:vendor-ctrlpt", package]
            .map(Self.shellQuoted).joined(separator: " ")
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qfec", command, "/dev/null"],
                                        in: directory.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        let output = result.stdout
        let redraws = output.components(separatedBy: "\r\u{1B}[2K'application' ").count - 1
        XCTAssertGreaterThanOrEqual(redraws, 2, "the progress line is redrawn in place:\n\(output.debugDescription)")
        XCTAssertTrue(output.contains("\r\u{1B}[2K'application' 100% 20,000/20,000 bytes, "), output.debugDescription)
        XCTAssertTrue(output.contains("ETA 0:00 (simulated)"), output.debugDescription)
        XCTAssertFalse(output.contains("progress 'application':"), "no plain lines on a terminal:\n\(output)")
        XCTAssertTrue(output.contains("19.5 KiB sent in "), output.debugDescription)
    }
}
