import DFUPackage
import XCTest

/// Archives crafted to attack the reader: traversal names and zip bombs. Python's `zipfile`
/// writes them, since our own writer refuses unsafe names.
final class MaliciousArchiveTests: XCTestCase {
    func testPathTraversalEntryIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("evil.zip")
        try PackageFixtures.makePythonZip(at: path, entries: [
            .init(name: "manifest.json", text: PackageFixtures.manifestText()),
            .init(name: "application.bin", text: "123456789"),
            .init(name: "../evil.bin", text: "pwned"),
        ])
        let error = catchPackageError { () throws(PackageError) in try FirmwarePackage.open(path: path) }
        XCTAssertEqual(error, .unsafeEntryName(path: path, entry: "../evil.bin", reason: "contains a '..' component"))
        XCTAssertTrue(error?.description.contains("unsafe entry name '../evil.bin'") ?? false)
    }

    func testAbsoluteEntryNameIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("absolute.zip")
        try PackageFixtures.makePythonZip(at: path, entries: [
            .init(name: "/etc/evil", text: "x"),
            .init(name: "manifest.json", text: PackageFixtures.manifestText()),
        ])
        guard case .unsafeEntryName(_, "/etc/evil", "absolute path")? =
                catchPackageError({ () throws(PackageError) in try ZipArchive(path: path) })
        else { return XCTFail("absolute name accepted") }
    }

    func testManifestFileKeyWithTraversalIsRefused() throws {
        let directory = try TemporaryDirectory()
        let manifest = PackageFixtures.manifestText().replacingOccurrences(of: "\"application.bin\"", with: "\"../application.bin\"")
        let path = try PackageFixtures.makeZip(in: directory, name: "p.zip", entries: [
            ("manifest.json", Array(manifest.utf8)), ("application.bin", PackageFixtures.applicationBytes),
        ])
        guard case .unsafeEntryName(_, "../application.bin", _)? =
                catchPackageError({ () throws(PackageError) in try FirmwarePackage.open(path: path) })
        else { return XCTFail("manifest traversal accepted") }
    }

    func testEntryNameRules() {
        for safe in ["application.bin", "images/app.bin", "dir/", "a..b"] {
            XCTAssertNil(ZipEntryName.unsafeReason(safe), safe)
        }
        let unsafe = ["", "/abs", "../x", "a/../../x", "a/..", "a\\b", "C:/x", "a\u{0}b", "a//b", "./a", "a\nb"]
        for name in unsafe {
            XCTAssertNotNil(ZipEntryName.unsafeReason(name), name.debugDescription)
        }
        let writer = try? ZipWriter(path: (NSTemporaryDirectory() as NSString).appendingPathComponent("unused-\(UUID().uuidString).zip"))
        guard case .unsafeEntryName? = catchPackageError({ () throws(PackageError) in
            try writer?.add(name: "../x", bytes: [1])
        }) else { return XCTFail("writer accepted '../x'") }
    }

    /// The manifest says 100 bytes; the entry inflates to 20 MB of zeros (honest zip headers).
    func testZipBombIsRefusedBeforeInflating() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("bomb.zip")
        try PackageFixtures.makePythonZip(at: path, entries: [
            .init(name: "manifest.json", text: PackageFixtures.manifestText(size: 100)),
            .init(name: "application.bin", zeros: 20_000_000),
        ])
        XCTAssertLessThan(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int), 100_000)
        let error = catchPackageError { () throws(PackageError) in try FirmwarePackage.open(path: path) }
        XCTAssertEqual(error, .entryTooLarge(path: path, entry: "application.bin", limit: 100 + ZipReadLimit.slack))
        XCTAssertTrue(error?.description.contains("zip bomb") ?? false)
    }

    /// As above, but both zip headers also claim 100 bytes: only the read cap can stop it.
    func testZipBombWithLyingHeadersStopsAtTheReadLimit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("liar.zip")
        try PackageFixtures.makePythonZip(at: path, entries: [
            .init(name: "manifest.json", text: PackageFixtures.manifestText(size: 100)),
            .init(name: "application.bin", zeros: 20_000_000, claimedSize: 100),
        ])
        let archive = try ZipArchive(path: path)
        XCTAssertEqual(archive.entry(named: "application.bin")?.size, 100, "the headers should lie")
        let error = catchPackageError { () throws(PackageError) in try FirmwarePackage.open(path: path) }
        XCTAssertEqual(error, .entryTooLarge(path: path, entry: "application.bin", limit: 100 + ZipReadLimit.slack))
    }

    func testReadLimit() {
        XCTAssertEqual(ZipReadLimit.limit(forExpectedSize: 0), ZipReadLimit.slack)
        XCTAssertEqual(ZipReadLimit.limit(forExpectedSize: 100), 100 + ZipReadLimit.slack)
        XCTAssertEqual(ZipReadLimit.limit(forExpectedSize: Int.max), ZipReadLimit.hardLimit)
        XCTAssertEqual(ZipReadLimit.limit(forExpectedSize: ZipReadLimit.hardLimit), ZipReadLimit.hardLimit)
    }
}
