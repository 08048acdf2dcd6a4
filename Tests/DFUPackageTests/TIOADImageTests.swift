import DFUBytes
@testable import DFUPackage
import XCTest

/// TI OAD images (BLE5-Stack): the header's bytes as oad_image_header.h lays them out, the
/// identify payload oad.h defines, and the checks on the samples firmware-samples/
/// make-ti-oad-samples.py writes as oad_image_tool does.
final class TIOADImageTests: XCTestCase {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("firmware-samples/ti")

    private func sample(_ name: String) -> String { Self.samples.appendingPathComponent(name).path }

    /// imgFixedHdr_t, packed little-endian, field by field from oad_image_header.h.
    func testHeaderBytesFollowThePublishedLayout() throws {
        var header = TIOADImageHeader(imageID: "CC26x2R1", imageType: .applicationStackLibrary, softwareVersion: "0001",
                                      length: 0x0000_2584, programEntry: 0x0000_0091, endAddress: 0x0000_2583)
        header.crc32 = 0x902F_B805
        let golden = "4343323678325231" // imgID "CC26x2R1"
            + "05b82f90"                 // crc32
            + "03" + "01"                // bimVer 3, metaVer 1
            + "feff"                     // techType 0xFFFE, BLE
            + "ff" + "ff"                // imgCpStat, crcStat
            + "07" + "01"                // imgType app + stack library, imgNo 1
            + "ffffffff"                 // imgVld
            + "84250000"                 // len 9604
            + "91000000"                 // prgEntry
            + "30303031"                 // softVer "0001"
            + "83250000"                 // imgEndAddr
            + "2c00"                     // hdrLen 44
            + "ffff"                     // rfu
        XCTAssertEqual(header.encoded.hexString, golden)
        XCTAssertEqual(try TIOADImageHeader(decoding: header.encoded), header)
        // imgIdentifyPld_t: imgID, bimVer, metaVer, imgCpStat, crcStat, imgType, imgNo, len, softVer.
        XCTAssertEqual(header.identifyPayload.hexString, "4343323678325231" + "0301" + "ffff" + "0701" + "84250000" + "30303031")
        XCTAssertThrowsError(try TIOADImageHeader(decoding: Array(header.encoded.prefix(43))))
    }

    func testAValidImageIsReadWithItsSegmentsAndPassesItsChecks() throws {
        let package = try FirmwarePackage.open(path: sample("oad-app-9604.bin"))
        XCTAssertEqual(package.format, .standalone)
        XCTAssertNoThrow(try package.requireIntact())
        let image = try XCTUnwrap(package.images.first)
        XCTAssertEqual(image.version, "0002")
        XCTAssertEqual(image.profile, "ti-oad")
        let standalone = try XCTUnwrap(image.standalone)
        XCTAssertEqual(standalone.checks.count, 5)
        XCTAssertTrue(standalone.checks.allSatisfy(\.passed), "\(standalone.checks)")
        let details = Dictionary(uniqueKeysWithValues: standalone.details.map { ($0.key, $0.value) })
        XCTAssertEqual(details["image type"], "application + stack library (7)")
        XCTAssertEqual(details["segment 0"], "contiguous image segment at 44, 9560 bytes, BLE (0xFFFE), to 0x0")
        XCTAssertEqual(details["crc32"], "0x902fb805")
    }

    func testASplitApplicationShowsItsBoundarySegment() throws {
        let package = try FirmwarePackage.open(path: sample("oad-split-app-4800.bin"))
        XCTAssertNoThrow(try package.requireIntact())
        let details = try XCTUnwrap(package.images.first?.standalone?.details)
        XCTAssertTrue(details.contains(.init("segment 0", "boundary segment at 44, 24 bytes, BLE (0xFFFE), stack at 0x38000 entry 0x38041, RAM 0x20000000-0x20003FFF")))
        XCTAssertTrue(details.contains(.init("segment 1", "contiguous image segment at 68, 4732 bytes, BLE (0xFFFE), to 0x0")))
        XCTAssertTrue(details.contains(.init("image type", "application (1)")))
    }

    func testADamagedImageIsRefusedBeforeUploadNamingTheCRC() throws {
        let package = try FirmwarePackage.open(path: sample("oad-app-damaged-crc.bin"))
        XCTAssertThrowsError(try package.requireIntact()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("crc32: the header says 0x902fb805, bytes 12 to 9604 give 0x"), text)
            XCTAssertTrue(text.contains("its file format's own checks"), text)
        }
    }

    func testATruncatedImageFailsItsLengthSegmentsAndCRC() throws {
        let checks = try XCTUnwrap(try FirmwarePackage.open(path: sample("oad-app-truncated.bin")).images.first?.standalone?.checks)
        XCTAssertEqual(checks.map(\.passed), [true, false, false, true, false])
        XCTAssertEqual(checks[1].detail, "len: the header says 9604 bytes, the file has only 5000: it is truncated")
    }

    func testAnImageForAnotherChipIsIntact() throws {
        // The file is whole; a CC26x2 device refuses its imgID at Image Identify.
        let package = try FirmwarePackage.open(path: sample("oad-app-cc13x2r1.bin"))
        XCTAssertNoThrow(try package.requireIntact())
        XCTAssertEqual(package.images.first?.standalone?.details.first, .init("image id", "'CC13x2R1'"))
    }

    func testRecognitionByPublishedIDOrByTheHeadersFixedValues() {
        let custom = TIOADImageSamples.image(imageID: "ACME-01 ", length: 200)
        XCTAssertTrue(TIOADImageFormat.recognizes(head: Array(custom.prefix(64)), path: "x.bin"))
        var other = custom
        other[12] = 2  // another BIM version, and no published imgID
        XCTAssertFalse(TIOADImageFormat.recognizes(head: Array(other.prefix(64)), path: "x.bin"))
        var published = TIOADImageSamples.image(imageID: "OAD IMG ", length: 200)
        published[12] = 2
        XCTAssertTrue(TIOADImageFormat.recognizes(head: Array(published.prefix(64)), path: "x.bin"))
        XCTAssertFalse(TIOADImageFormat.recognizes(head: Array(custom.prefix(43)), path: "x.bin"))
    }

    func testSegmentsThatDoNotFitAndAMissingPayloadAreNamed() throws {
        var image = TIOADImageSamples.image(length: 120)
        image[48] = 0xFF  // the payload segment's len: 0x...FF, past the image
        XCTAssertThrowsError(try TIOADSegment.segments(of: image, length: 120)) { error in
            XCTAssertTrue("\(error)".hasPrefix("the segment at byte 44 is "), "\(error)")
        }
        var boundaryOnly = TIOADImageSamples.image(length: 120)
        boundaryOnly[44] = 0  // the payload segment now says "boundary"
        let checks = try TIOADImageFormat.read(TIOADImageSamples.refreshingCRC(boundaryOnly), path: "b.bin").checks
        XCTAssertFalse(checks[2].passed)
        XCTAssertTrue(checks[2].detail.hasPrefix("segments: no image payload segment (found boundary segment)"), checks[2].detail)
        var tiny = TIOADImageSamples.image(length: 120)
        tiny[48...51] = [4, 0, 0, 0]
        XCTAssertEqual(try? TIOADSegment.segments(of: tiny, length: 120), nil)
    }

    func testTheBuilderLaysImagesOutAsTheToolDoes() throws {
        // The sample make-ti-oad-samples.py wrote, rebuilt from its code: the same bytes but the
        // program entry and end address the builder derives.
        let sample = try [UInt8](Data(contentsOf: Self.samples.appendingPathComponent("oad-app-9604.bin")))
        let rebuilt = TIOADImageBuilder.image(code: Array(sample[56...]), softwareVersion: "0002")
        XCTAssertEqual(rebuilt.count, sample.count)
        XCTAssertEqual(Array(rebuilt[44...]), Array(sample[44...]), "segment and code")
        XCTAssertEqual(try TIOADImageFormat.read(rebuilt, path: "r.bin").checks.map(\.passed), [true, true, true, true, true])
    }

    func testAnImageMarkedCRCInvalidIsRefused() throws {
        var image = TIOADImageSamples.image(length: 100)
        image[17] = TIOADImageHeader.crcInvalid
        let checks = try TIOADImageFormat.read(TIOADImageSamples.refreshingCRC(image), path: "i.bin").checks
        XCTAssertEqual(checks.map(\.passed), [true, true, true, false, true])
    }
}

/// OAD images built in tests as oad_image_tool lays them out (`TIOADImageBuilder`).
enum TIOADImageSamples {
    static func image(imageID: String = "CC26x2R1", length: Int, seed: UInt8 = 3) -> [UInt8] {
        let code = (0..<(length - 56)).map { UInt8(truncatingIfNeeded: ($0 + 56) &* 31 &+ Int(seed)) }
        return TIOADImageBuilder.image(code: code, imageID: imageID)
    }

    static func refreshingCRC(_ image: [UInt8]) -> [UInt8] {
        var image = image
        let crc = CRC32.checksum(Array(image[12...]))
        image[8...11] = [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
        return image
    }
}
