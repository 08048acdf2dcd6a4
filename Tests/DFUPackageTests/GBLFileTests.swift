import DFUBytes
@testable import DFUPackage
import XCTest

/// The GBL reader against files Simplicity Commander 1v25 made (firmware-samples/silabs) and
/// against damaged and hand-built ones.
final class GBLFileTests: XCTestCase {
    func testCommanderPlainFileReadsTagByTag() throws {
        let bytes = try GBLSamples.bytes("app-plain.gbl")
        let file = GBLFile(bytes)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.tags.map(\.id), [.header, .application, .eraseProgram, .end])
        XCTAssertEqual(file.tags.map(\.offset), [0, 16, 52, 6064])
        XCTAssertEqual(file.header?.version, 0x0300_0000)
        XCTAssertEqual(file.header?.type, [])
        let application = try XCTUnwrap(file.application)
        XCTAssertEqual(application.type, 0x20)
        XCTAssertEqual(application.typeText, "Bluetooth app")
        XCTAssertEqual(application.version, 0x0001_0002)
        XCTAssertEqual(application.productID, Array(0x50...0x5F))
        XCTAssertEqual(file.programData, [try XCTUnwrap(GBLProgramData(file.tags[2]))])
        XCTAssertEqual(file.programData.first?.flashStartAddress, 0x6000)
        XCTAssertEqual(file.programData.first?.dataCount, 6000)
        XCTAssertEqual(file.trailing, [], "6076 bytes: already a multiple of 4")
        XCTAssertEqual(file.crcMatches, true)
        // The end tag's CRC covers the file up to and including the end tag's header.
        XCTAssertEqual(file.endTag?.crc32, CRC32.checksum(Array(bytes[0..<6072])))
    }

    /// Golden bytes: the builder lays out Commander's file exactly (header, application,
    /// erase & program, end, CRC), from the same application data and program bytes.
    func testBuilderReproducesCommandersFilesByteForByte() throws {
        for name in ["app-plain.gbl", "app-size-2364.gbl", "app-size-2365.gbl", "app-metadata.gbl"] {
            let bytes = try GBLSamples.bytes(name)
            let file = GBLFile(bytes)
            let application = try XCTUnwrap(file.application)
            let program = try XCTUnwrap(file.tags.first { $0.id == .eraseProgram })
            let metadata = file.tags.first { $0.id == .metadata }?.body
            let builder = GBLBuilder(version: application.version, type: application.type,
                                     capabilities: application.capabilities, productID: application.productID,
                                     programAddress: 0x6000, metadata: metadata)
            XCTAssertEqual(builder.build(program: Array(program.body.dropFirst(4))), bytes, name)
        }
    }

    func testCommanderPadsToFourBytesAfterTheEndTag() throws {
        let file = GBLFile(try GBLSamples.bytes("app-size-2365.gbl"))
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.trailing, [0xFF, 0xFF, 0xFF], "2441 bytes of tags, padded to 2444")
        XCTAssertEqual(file.crcMatches, true)
    }

    func testMetadataLZ4DependencyAndSignatureTagsAreRead() throws {
        XCTAssertEqual(GBLFile(try GBLSamples.bytes("app-metadata.gbl")).tags.map(\.id),
                       [.header, .application, .eraseProgram, .metadata, .end])
        XCTAssertEqual(GBLFile(try GBLSamples.bytes("app-lz4.gbl")).tags.map(\.id),
                       [.header, .application, .programLZ4, .end])
        let dependency = GBLFile(try GBLSamples.bytes("app-dependency.gbl"))
        XCTAssertEqual(dependency.tags.map(\.id), [.header, .versionDependency, .application, .eraseProgram, .end])
        XCTAssertEqual(GBLVersionDependency.entries(dependency.tags[1])?.map(\.description),
                       ["application >= 0x00000001"])
        let signed = GBLFile(try GBLSamples.bytes("app-signed.gbl"))
        XCTAssertEqual(signed.problems, [])
        XCTAssertEqual(signed.tags.map(\.id), [.header, .application, .eraseProgram, .signature, .end])
        XCTAssertTrue(signed.header?.type.contains(.signed) == true)
        XCTAssertTrue(signed.isSigned)
        XCTAssertEqual(signed.crcMatches, true)
        for name in ["app-metadata.gbl", "app-lz4.gbl", "app-dependency.gbl"] {
            XCTAssertEqual(GBLFile(try GBLSamples.bytes(name)).problems, [], name)
        }
    }

    /// The signature covers every tag but the signature and end tags; Commander's verifies with
    /// its public key (raw r || s, as the bootloader reads them).
    func testCommanderSignatureVerifiesOverTheTagsBeforeIt() throws {
        let file = GBLFile(try GBLSamples.bytes("app-signed.gbl"))
        let signature = try XCTUnwrap(file.signature)
        let pem = try String(contentsOfFile: GBLSamples.path("gbl-signing-key-THROWAWAY.pub.pem"), encoding: .utf8)
        let key = try PEM.decode(pem).der
        XCTAssertTrue(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: file.signedBytes,
                                                            signature: signature.r + signature.s, format: .raw))
        var tampered = file.signedBytes
        tampered[100] ^= 1
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: tampered,
                                                             signature: signature.r + signature.s, format: .raw))
    }

    func testDamagedFilesSayWhatIsWrong() throws {
        let badCRC = GBLFile(try GBLSamples.bytes("app-bad-crc.gbl"))
        XCTAssertEqual(badCRC.problems, [], "the structure is intact")
        XCTAssertEqual(badCRC.crcMatches, false)

        let truncated = GBLFile(try GBLSamples.bytes("app-truncated.gbl"))
        XCTAssertEqual(truncated.problems, ["erase & program data (0xFD0303FD) at offset 52 claims 6004 bytes, but only "
            + "5916 follow: the file is truncated or the length is damaged"])
        XCTAssertNil(truncated.crcMatches)

        let foreign = GBLFile(try GBLSamples.bytes("not-a-gbl.gbl"))
        XCTAssertEqual(foreign.problems, ["the file does not start with a GBL header tag (0x03A617EB) but with "
            + "0xE35050E3: not a GBL file, or a damaged one"])
        XCTAssertEqual(GBLFile([]).problems, ["the file is empty"])
        XCTAssertEqual(GBLFile([0xEB, 0x17, 0xA6]).problems,
                       ["3 bytes at offset 0 are too few for a tag header: the file is truncated"])
    }

    func testOrderPaddingVersionAndBodiesAreChecked() throws {
        let good = GBLBuilder(version: 7).build(program: [1, 2, 3, 4])
        XCTAssertEqual(GBLFile(good).problems, [])
        // The application tag after the program data: out of order.
        var writer = ByteWriter()
        let file = GBLFile(good)
        for index in [0, 2, 1, 3] { writer.append(bytes: good[file.tags[index].offset..<file.tags[index].end]) }
        XCTAssertEqual(GBLFile(writer.bytes).problems.first,
                       "application (0xF40A0AF4) at offset 32 comes after a tag it must precede: bootloaders refuse "
                           + "tags out of order (GBL_TAG_ORDER)")
        XCTAssertEqual(GBLFile(good + [0x00]).problems, ["1 bytes after the end tag are not 0xFF padding"])
        var version2 = good
        version2[11] = 0x02
        XCTAssertEqual(GBLFile(version2).problems, ["GBL version 2.0 (0x2000000): bootloaders take version 3 only"])
        var signedHeader = good
        signedHeader[13] = 0x01
        XCTAssertEqual(GBLFile(signedHeader).problems, ["the header says the file is signed, but it has no signature tag"])
        var shortEnd = GBLBuilder(version: 1)
        shortEnd.padsToWord = false
        let unpadded = shortEnd.build(program: [9])
        XCTAssertEqual(unpadded.count, GBLBuilder.overhead + 1)
        XCTAssertEqual(GBLFile(unpadded).problems, [])
        XCTAssertEqual(GBLFile(Array(unpadded.dropLast(2))).problems.first,
                       "end (0xFC0404FC) at offset 65 claims 4 bytes, but only 2 follow: the file is truncated or the "
                           + "length is damaged")
    }

    func testUnknownTagsAreShownNotRefused() throws {
        let good = GBLBuilder(version: 7).build(program: [1, 2, 3, 4])
        let file = GBLFile(good)
        var writer = ByteWriter()
        writer.append(bytes: good[0..<file.tags[3].offset])
        writer.append(UInt32(0x1234_5678), endianness: .little)
        writer.append(UInt32(2), endianness: .little)
        writer.append(bytes: [0xAA, 0xBB])
        writer.append(GBLTagID.end.rawValue, endianness: .little)
        writer.append(UInt32(4), endianness: .little)
        writer.append(CRC32.checksum(writer.bytes), endianness: .little)
        let withUnknown = GBLFile(writer.bytes)
        XCTAssertEqual(withUnknown.problems, [])
        XCTAssertEqual(withUnknown.unknownTags.map(\.id.description), ["unknown tag 0x12345678"])
        XCTAssertEqual(withUnknown.crcMatches, true)
    }
}
