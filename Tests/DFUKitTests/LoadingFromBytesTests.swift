import DFUKit
import DFUKitPackages
import Foundation
import XCTest

/// Profiles and packages opened from bytes as well as from files.
final class LoadingFromBytesTests: XCTestCase {
    func testAProfileFromBytesIsTheProfileFromItsFile() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path
        let fromFile = try ProfileLoader.load(path: path)
        let fromData = try ProfileLoader.load(data: try Data(contentsOf: URL(fileURLWithPath: path)), name: "embedded.yaml")
        XCTAssertEqual(fromData.name, fromFile.name)
        XCTAssertEqual(fromData.path, "embedded.yaml")
        XCTAssertEqual(fromData.commands.keys.sorted(), fromFile.commands.keys.sorted())
        XCTAssertEqual(fromData.procedure.count, fromFile.procedure.count)
    }

    func testProfileErrorsFromBytesNameTheGivenName() {
        let text = "profile: x\nversion: 2\ncharacteristics: {}\ncommands: {}\nprocedure: []\n"
        XCTAssertThrowsError(try ProfileLoader.load(data: Data(text.utf8), name: "bad.yaml")) { error in
            let description = "\(error)"
            XCTAssertTrue(description.contains("bad.yaml:2:"), description)
            XCTAssertTrue(description.contains("this DFUKit reads version \(DFUKit.profileLanguageVersion)"), description)
        }
    }

    func testAPackageFromBytesHasTheImagesOfThePackageFile() throws {
        let directory = try ScratchDirectory()
        let path = try Fixtures.vendorPackage(in: directory)
        let fromFile = try FirmwarePackage.open(path: path)
        let fromData = try FirmwarePackage.open(data: try Data(contentsOf: URL(fileURLWithPath: path)), name: "download.zip")
        XCTAssertEqual(fromData.path, "download.zip")
        XCTAssertEqual(fromData.images, fromFile.images)
        XCTAssertNoThrow(try fromData.requireIntact())
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix("dfukit-package-") }
        XCTAssertEqual(leftovers, [], "the temporary copy is removed")
    }

    func testBytesThatAreNoPackageAreRefusedUnderTheGivenName() {
        XCTAssertThrowsError(try FirmwarePackage.open(data: Data("not a package".utf8), name: "junk.zip")) { error in
            let description = "\(error)"
            XCTAssertTrue(description.contains("junk.zip"), description)
            XCTAssertFalse(description.contains("dfukit-package-"), description)
        }
    }
}
