import DFUPackage
import XCTest

final class PackageInspectionTests: XCTestCase {
    func testRenderJSONIsGolden() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("one.zip")
        try PackageBuilder.create(images: [.init(name: "application", data: PackageFixtures.applicationBytes, version: "1.2.3")],
                                  profile: "vendor-ctrlpt", outputPath: path)
        let inspection = try PackageInspection.inspect(path: path)
        XCTAssertTrue(inspection.isIntact)
        XCTAssertEqual(inspection.renderJSON(), """
            {
              "package": "\(path)",
              "format": "dfukit-package v1",
              "images": [
                {
                  "name": "application",
                  "file": "application.bin",
                  "size": 9,
                  "sha256": "\(PackageFixtures.applicationSHA256)",
                  "crc32": "0xcbf43926",
                  "version": "1.2.3",
                  "profile": "vendor-ctrlpt",
                  "matches_manifest": true,
                  "problems": []
                }
              ]
            }

            """)
    }

    func testRenderTextIsGolden() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("one.zip")
        try PackageBuilder.create(images: [.init(name: "application", data: PackageFixtures.applicationBytes, version: "1.2.3")],
                                  profile: "vendor-ctrlpt", outputPath: path)
        XCTAssertEqual(try PackageInspection.inspect(path: path).renderText(), """
            package: \(path)
            format:  dfukit-package v1
            image application:
              file:    application.bin
              size:    9 bytes
              sha256:  \(PackageFixtures.applicationSHA256)
              crc32:   0xcbf43926
              version: 1.2.3
              profile: vendor-ctrlpt
              status:  matches manifest
            result:  intact

            """)
    }

    func testJSONEscapesStrings() throws {
        let package = FirmwarePackage(path: "dir/\"quoted\"\n.zip", format: .dfukit,
                                      manifest: PackageManifest(images: []), images: [])
        let json = PackageInspection(package: package).renderJSON()
        XCTAssertTrue(json.contains(#""package": "dir/\"quoted\"\n.zip""#), json)
        XCTAssertTrue(json.contains(#""images": []"#), json)
    }
}
