import Foundation
import XCTest

/// The README's embedding example is an Examples target, verbatim, so `make test` (which builds
/// and runs the examples) compiles it: this test fails when the README and the target differ.
final class ReadmeExampleTests: XCTestCase {
    func testTheReadmeExampleIsTheExampleTargetVerbatim() throws {
        let readme = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- readme-example: "
        let blocks = readme.components(separatedBy: marker).dropFirst()
        XCTAssertEqual(blocks.count, 1, "README.md has one marked embedding example")
        let block = try XCTUnwrap(blocks.first)
        let target = try XCTUnwrap(block.components(separatedBy: " -->").first)
        let fence = "```swift\n"
        let start = try XCTUnwrap(block.range(of: fence), "the marker is followed by a swift code block")
        let code = try XCTUnwrap(block[start.upperBound...].components(separatedBy: "```").first)
        XCTAssertLessThanOrEqual(code.split(separator: "\n").count, 12, "a short example")
        XCTAssertTrue(code.contains("DFUKit.flash("), code)
        let file = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(target), encoding: .utf8)
        XCTAssertEqual(file, code, "\(target) differs from the README's example: copy the README's block into it")
        let manifest = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Examples/Package.swift"),
                                  encoding: .utf8)
        let targetName = URL(fileURLWithPath: target).deletingLastPathComponent().lastPathComponent
        XCTAssertTrue(manifest.contains(".executableTarget(name: \"\(targetName)\""), "Examples/Package.swift builds \(targetName)")
    }
}
