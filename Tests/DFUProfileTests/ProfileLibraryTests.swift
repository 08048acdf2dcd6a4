import DFUProfile
import Foundation
import XCTest

/// Resolving `--profile NAME|FILE` and scalar helpers.
final class ProfileLibraryTests: XCTestCase {
    func testResolvesNamesInTheSourceTreeAndPaths() throws {
        let library = ProfileLibrary(searchDirectories: ["/nonexistent/dfukit",
                                                         ProfileLibrary.sourceTreeProfilesDirectory])
        let path = try library.resolve("vendor-ctrlpt")
        XCTAssertEqual(URL(fileURLWithPath: path).standardizedFileURL.path,
                       URL(fileURLWithPath: vendorProfilePath).standardizedFileURL.path)
        XCTAssertEqual(try library.resolve(vendorProfilePath), vendorProfilePath)
        XCTAssertEqual(try library.load("vendor-ctrlpt").name, "vendor-ctrlpt")
        XCTAssertTrue(library.availableProfiles().contains { $0.name == "vendor-ctrlpt" })
    }

    func testStandardSearchPathOrder() {
        let library = ProfileLibrary.standard(environment: ["DFUKIT_PROFILE_PATH": "/a:/b"], currentDirectory: "/work",
                                              executablePath: "/opt/dfukit/bin/dfukit")
        XCTAssertEqual(Array(library.searchDirectories.prefix(4)),
                       ["/a", "/b", "/work/profiles", "/opt/dfukit/share/dfukit/profiles"])
        XCTAssertEqual(library.searchDirectories.last, ProfileLibrary.sourceTreeProfilesDirectory)
    }

    func testNotFoundListsTheSearchedDirectories() {
        let library = ProfileLibrary(searchDirectories: ["/nonexistent/one",
                                                         ProfileLibrary.sourceTreeProfilesDirectory])
        do {
            _ = try library.resolve("vendor-ctrlpd")
            XCTFail("resolved")
        } catch {
            let text = error.description
            XCTAssertTrue(text.hasPrefix("vendor-ctrlpd: error: no profile file or name 'vendor-ctrlpd'; "
                                         + "did you mean 'vendor-ctrlpt'?"), text)
            XCTAssertTrue(text.contains("\n  /nonexistent/one\n"), text)
            XCTAssertTrue(text.contains(ProfileLibrary.sourceTreeProfilesDirectory), text)
        }
    }

    func testMissingFile() {
        do {
            _ = try ProfileLoader.load(path: "/nonexistent/x.yaml")
            XCTFail("loaded")
        } catch {
            XCTAssertEqual(error.description, "/nonexistent/x.yaml: error: no such profile file")
        }
    }

    func testDurations() {
        XCTAssertEqual(ProfileDuration.parse("250ms"), .milliseconds(250))
        XCTAssertEqual(ProfileDuration.parse("5s"), .seconds(5))
        XCTAssertEqual(ProfileDuration.parse("2m"), .seconds(120))
        XCTAssertEqual(ProfileDuration.parse("1h"), .seconds(3600))
        for bad in ["5", "s", "5 s", "-1s", "1.5s", "5sec", ""] {
            XCTAssertNil(ProfileDuration.parse(bad), bad)
        }
        XCTAssertEqual(ProfileDuration.format(.milliseconds(250)), "250ms")
        XCTAssertEqual(ProfileDuration.format(.seconds(120)), "2m")
        XCTAssertEqual(ProfileDuration.format(.seconds(5)), "5s")
    }
}
