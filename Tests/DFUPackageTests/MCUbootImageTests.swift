import DFUBytes
import DFUPackage
import XCTest

/// MCUboot images signed by imgtool 2.5.0 (firmware-samples/mcuboot), parsed and checked.
/// Expected values are what `imgtool dumpinfo` / `imgtool verify` printed for the same files
/// (firmware-samples/mcuboot/imgtool-dumpinfo.txt).
final class MCUbootImageTests: XCTestCase {
    private func image(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> MCUbootImage {
        let bytes = try MCUbootSamples.bytes(path)
        do {
            return try MCUbootImage(bytes: bytes)
        } catch {
            XCTFail("\(path) does not parse: \(error)", file: file, line: line)
            throw error
        }
    }

    private func parseError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> MCUbootImageError? {
        do {
            _ = try MCUbootImage(bytes: bytes)
            XCTFail("expected an MCUbootImageError", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func summary(_ tlvs: [MCUbootTLV]) -> [String] {
        tlvs.map { "0x" + String($0.type.rawValue, radix: 16) + " \($0.value.count)" }
    }

    func testUnsignedImageAsDumpinfoPrintsIt() throws {
        let image = try image(MCUbootSamples.unsigned)
        XCTAssertEqual(image.bytes.count, 31284)
        XCTAssertEqual(image.header.loadAddress, 0)                  // load_addr: 0x0
        XCTAssertEqual(image.header.headerSize, 0x200)               // hdr_size: 0x200
        XCTAssertEqual(image.header.protectedTLVSize, 0)             // protected_tlv_size: 0x0
        XCTAssertEqual(image.header.imageSize, 0x780C)               // img_size: 0x780c
        XCTAssertEqual(image.header.flags, [])                       // flags: 0x0
        XCTAssertEqual(image.version.description, "1.2.3+4")         // version: 1.2.3+4
        XCTAssertEqual(image.version, MCUbootImageVersion(major: 1, minor: 2, revision: 3, build: 4))
        XCTAssertNil(image.protectedTLVArea)
        XCTAssertEqual(image.tlvArea.offset, 0x7A0C)                 // TLV area (offset: 0x7a0c)
        XCTAssertEqual(image.tlvArea.magic, 0x6907)
        XCTAssertEqual(image.tlvArea.totalSize, 0x28)                // area size: 0x28
        XCTAssertEqual(summary(image.tlvs), ["0x10 32"])             // SHA256 (0x10), len 0x20
        XCTAssertEqual(image.imageHash?.hexString, "f282cf744f2e78f3bb8cdcbfd7d79db79c46b0bf733a30d81d17e1ca3543a6e4")
        XCTAssertTrue(image.imageHashMatches)
        XCTAssertEqual(image.hashedByteCount, 0x7A0C)
        XCTAssertEqual(image.payload.count, 0x780C)
        XCTAssertEqual(image.trailingByteCount, 0)
        XCTAssertNil(image.signatureTLV)
        // --pad-header: the bytes between the 32-byte header and hdr_size are 0xff (erased flash).
        XCTAssertTrue(image.bytes[32..<0x200].allSatisfy { $0 == 0xFF })
    }

    func testECDSAP256ImageVerifiesWithItsKeyOnly() throws {
        let image = try image(MCUbootSamples.ecdsa)
        XCTAssertEqual(image.header.imageSize, 0xA000)               // img_size: 0xa000
        XCTAssertEqual(image.tlvArea.offset, 0xA200)                 // TLV area (offset: 0xa200)
        XCTAssertEqual(image.tlvArea.totalSize, 0x97)                // area size: 0x97
        XCTAssertEqual(summary(image.tlvs), ["0x10 32", "0x1 32", "0x22 71"])
        XCTAssertEqual(image.imageHash?.hexString, "dbe392348d6d5e8f734aad4e53dad630d6d242734f87ab296cb03bc5e6340f81")
        XCTAssertEqual(image.tlv(.keyHash)?.value.hexString,
                       "ebc568638d3d495dfb21cee2438d0626a0373e2c528253fe0e86f0ba1f92a92d")
        XCTAssertEqual(image.tlv(.ecdsaSignature)?.value.hexString,
                       "3045022100ac91d44b4132143252947f7c5dd9fc68ff83f138e0ce0f465d8f2356b859bf4c02205d79fe493ff"
                       + "445d8b08aed8208a613e8788c681b1490a30df16e838aff490fbb")
        XCTAssertTrue(image.imageHashMatches)
        XCTAssertEqual(image.signatureTLV?.type, .ecdsaSignature)

        let key = try MCUbootSamples.keyDER("ecdsa-p256")
        let wrongKey = try MCUbootSamples.keyDER("wrong-ecdsa-p256")
        // imgtool getpubhash: the KEYHASH TLV is the SHA-256 of the DER key.
        XCTAssertEqual(MCUbootImage.keyHash(publicKeyDER: key).hexString,
                       "ebc568638d3d495dfb21cee2438d0626a0373e2c528253fe0e86f0ba1f92a92d")
        XCTAssertEqual(image.namesKey(publicKeyDER: key), true)
        XCTAssertEqual(image.namesKey(publicKeyDER: wrongKey), false)
        // ECDSA-SHA256 over the raw hashed range (imgtool "sign the payload").
        XCTAssertEqual(try image.checkSignature(publicKeyDER: key), true)
        XCTAssertEqual(try image.checkSignature(publicKeyDER: wrongKey), false)
        XCTAssertThrowsError(try image.checkSignature(publicKeyDER: try MCUbootSamples.keyDER("ed25519")))
    }

    func testEd25519ImageVerifiesOverTheDigestWithItsKeyOnly() throws {
        let image = try image(MCUbootSamples.ed25519)
        XCTAssertEqual(image.header.imageSize, 0x9064)               // img_size: 0x9064
        XCTAssertEqual(image.tlvArea.offset, 0x9264)
        XCTAssertEqual(image.tlvArea.totalSize, 0x90)
        XCTAssertEqual(summary(image.tlvs), ["0x10 32", "0x1 32", "0x24 64"])
        XCTAssertEqual(image.imageHash?.hexString, "4119db9d676f72cbe5f1ff352b060321298d53a26099242655b8c02766faf82f")
        XCTAssertEqual(image.tlv(.keyHash)?.value.hexString,
                       "277dc2fe99ee6bd5d488c2ebfd038f180ebcf0ccd3e87804caa1025d395bd5ec")
        XCTAssertEqual(image.tlv(.ed25519)?.value.hexString,
                       "0edc6d5567425d0d312771258f7c8d30b9051e9afe11d8b26815cc4edeeec6a8c0fc731b15a108aa7b3e66ef"
                       + "fcbc38048e59c94632a3723415c6f2e34bb03a06")
        XCTAssertTrue(image.imageHashMatches)
        XCTAssertTrue(image.signedMessage(for: .ed25519) == image.computedHash)

        let key = try MCUbootSamples.keyDER("ed25519")
        XCTAssertEqual(MCUbootImage.keyHash(publicKeyDER: key).hexString,
                       "277dc2fe99ee6bd5d488c2ebfd038f180ebcf0ccd3e87804caa1025d395bd5ec")
        XCTAssertEqual(try image.checkSignature(publicKeyDER: key), true)
        XCTAssertEqual(try image.checkSignature(publicKeyDER: try MCUbootSamples.keyDER("wrong-ed25519")), false)
        // Ed25519 over the whole range (rather than its digest) does not verify: imgtool signs the digest.
        XCTAssertEqual(try SignatureVerifier.verifyEd25519(publicKey: key, message: Array(image.bytes[0..<image.hashedByteCount]),
                                                           signature: try XCTUnwrap(image.tlv(.ed25519)?.value)), false)
    }

    /// imgtool pairs a P-384 key with SHA-384: the SHA384 TLV, a 48-byte KEYHASH (SHA-384 of the
    /// key) and an ECDSA P-384 signature over the hashed range with SHA-384.
    func testECDSAP384ImageUsesSHA384Throughout() throws {
        let image = try image(MCUbootSamples.ecdsaP384)
        XCTAssertEqual(image.header.imageSize, 0x5008)               // img_size: 0x5008
        XCTAssertEqual(image.tlvArea.offset, 0x5208)                 // TLV area (offset: 0x5208)
        XCTAssertEqual(summary(image.tlvArea.tlvs), ["0x11 48", "0x1 48", "0x22 102"])
        XCTAssertEqual(image.hashAlgorithm, .sha384)
        // imgtool verify: "Image digest: b36892d8..."
        XCTAssertEqual(image.imageHash?.hexString,
                       "b36892d8f165cd915a01d0420846da03e1929e72d1737adc93c8e20982c51dacef5a52f2db47077ed96c2a3e3357a72a")
        XCTAssertTrue(image.imageHashMatches)
        let key = try MCUbootSamples.keyDER("ecdsa-p384")
        XCTAssertEqual(MCUbootImage.keyHash(publicKeyDER: key, algorithm: .sha384).hexString,
                       "a5060506b3c34749c811a6cf64475e1faba4810f017706cd7611e19df18e260ceeccd0fe6820e8fb2fde5a4f236300b3")
        XCTAssertEqual(image.namesKey(publicKeyDER: key), true)
        XCTAssertEqual(image.signatureAlgorithm(.ecdsaSignature), "ECDSA P-384")
        XCTAssertEqual(try image.checkSignature(publicKeyDER: key), true)
        // A P-256 key cannot check it, and the signature does not verify over SHA-256.
        XCTAssertThrowsError(try image.checkSignature(publicKeyDER: try MCUbootSamples.keyDER("ecdsa-p256")))
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP384(
            publicKeyDER: key, message: Array(image.bytes[0..<image.hashedByteCount].dropLast()),
            signature: try XCTUnwrap(image.signatureTLV?.value), format: .der))
    }

    /// RSA-PSS (MGF1 SHA-256, 32-byte salt) over the hashed range; KEYHASH is the SHA-256 of the
    /// PKCS#1 key (`imgtool getpubhash`), not of the PEM's SubjectPublicKeyInfo.
    func testRSAImagesVerifyWithTheirKeysOnly() throws {
        let cases: [(String, String, MCUbootTLVType, Int, String, String)] = [
            (MCUbootSamples.rsa2048, "rsa-2048", .rsa2048, 256,
             "6fa679adad1497c7a84fa2ea6a7803476b4520d72a54d899e340890ae8e9a772",
             "6cbf0eaa9f043002005b8805a7a5d0515ea8f74168815851d7c0f21cfee7f50c"),
            (MCUbootSamples.rsa3072, "rsa-3072", .rsa3072, 384,
             "d4d3a200e14580d06f810e4e0d153d4b5482dec0f0948323efedd29940844a92",
             "4255c9ec1b99f145b3c699a41fdb93f325f8f382e0cd627586a5fc7c58167f8d"),
        ]
        for (path, keyName, type, signatureLength, digest, keyHash) in cases {
            let image = try image(path)
            XCTAssertEqual(image.signatureTLV?.type, type)
            XCTAssertEqual(image.signatureTLV?.value.count, signatureLength)
            XCTAssertEqual(image.imageHash?.hexString, digest)
            XCTAssertTrue(image.imageHashMatches)
            let key = try MCUbootSamples.keyDER(keyName)
            XCTAssertEqual(MCUbootImage.keyHash(publicKeyDER: key).hexString, keyHash, keyName)
            XCTAssertEqual(image.namesKey(publicKeyDER: key), true)
            XCTAssertEqual(try image.checkSignature(publicKeyDER: key), true, keyName)
            // The other RSA size and an ECDSA key are refused as keys for this signature.
            XCTAssertThrowsError(try image.checkSignature(
                publicKeyDER: try MCUbootSamples.keyDER(keyName == "rsa-2048" ? "rsa-3072" : "rsa-2048")))
            XCTAssertThrowsError(try image.checkSignature(publicKeyDER: try MCUbootSamples.keyDER("ecdsa-p256")))
            // One payload byte changed: the hash and the signature both fail.
            var bytes = image.bytes
            bytes[0x300] ^= 0x01
            let tampered = try MCUbootImage(bytes: bytes)
            XCTAssertFalse(tampered.imageHashMatches)
            XCTAssertEqual(try tampered.checkSignature(publicKeyDER: key), false, keyName)
        }
    }

    func testProtectedTLVAreaIsHashedAndSigned() throws {
        let image = try image(MCUbootSamples.protectedTLVs)
        XCTAssertEqual(image.header.loadAddress, 0x10000)            // load_addr: 0x10000
        XCTAssertEqual(image.header.flags, .romFixed)                // flags: ROM_FIXED (0x100)
        XCTAssertEqual(image.header.flags.description, "0x00000100 (ROM_FIXED)")
        XCTAssertEqual(image.header.protectedTLVSize, 0x73)          // protected_tlv_size: 0x73
        XCTAssertEqual(image.header.imageSize, 0x8404)
        XCTAssertEqual(image.version.description, "2.0.1+77")
        let protected = try XCTUnwrap(image.protectedTLVArea)
        XCTAssertEqual(protected.offset, 0x8604)                     // Protected TLV area (offset: 0x8604)
        XCTAssertEqual(protected.magic, 0x6908)
        XCTAssertEqual(protected.totalSize, 0x73)
        XCTAssertEqual(summary(protected.tlvs), ["0x50 4", "0x60 91", "0x1a0 4"])
        XCTAssertEqual(protected.tlvs.map(\.offset), [0x8608, 0x8610, 0x866F])
        XCTAssertTrue(protected.tlvs.allSatisfy(\.isProtected))
        XCTAssertEqual(image.tlv(.securityCounter)?.value, [7, 0, 0, 0])  // SEC_CNT 7
        // The vendor TLV's type is 16 bits: bytes a0 01, which a u8 type + pad reading would lose.
        let vendor = protected.tlvs[2]
        XCTAssertEqual(vendor.type.rawValue, 0x01A0)
        XCTAssertNil(vendor.type.name)
        XCTAssertTrue(vendor.type.isVendorType)
        XCTAssertEqual(vendor.type.description, "0x01a0")
        XCTAssertEqual(vendor.value.hexString, "cafe0001")
        XCTAssertEqual(Array(image.bytes[0x866F..<0x8673]), [0xA0, 0x01, 0x04, 0x00])

        XCTAssertEqual(image.tlvArea.offset, 0x8677)                 // TLV area (offset: 0x8677)
        XCTAssertEqual(image.tlvArea.totalSize, 0x96)
        XCTAssertEqual(summary(image.tlvArea.tlvs), ["0x10 32", "0x1 32", "0x22 70"])
        XCTAssertEqual(image.hashedByteCount, 0x8677)
        XCTAssertEqual(image.imageHash?.hexString, "744301cfe02cd4fc3c33fdd3df9d7acda9202d6ac75993f3888aed06af5a53d2")
        XCTAssertTrue(image.imageHashMatches)
        XCTAssertEqual(try image.checkSignature(publicKeyDER: try MCUbootSamples.keyDER("ecdsa-p256")), true)
        XCTAssertEqual(image.trailingByteCount, 0)
    }

    func testTamperedPayloadByteBreaksHashAndSignature() throws {
        var bytes = try MCUbootSamples.bytes(MCUbootSamples.ecdsa)
        bytes[0x300] ^= 0x01
        let image = try MCUbootImage(bytes: bytes)
        XCTAssertFalse(image.imageHashMatches)
        XCTAssertEqual(try image.checkSignature(publicKeyDER: try MCUbootSamples.keyDER("ecdsa-p256")), false)

        // A protected TLV is covered too.
        var protected = try MCUbootSamples.bytes(MCUbootSamples.protectedTLVs)
        protected[0x860C] ^= 0x01                                    // SEC_CNT 7 -> 6
        let changed = try MCUbootImage(bytes: protected)
        XCTAssertEqual(changed.tlv(.securityCounter)?.value, [6, 0, 0, 0])
        XCTAssertFalse(changed.imageHashMatches)
        XCTAssertEqual(try changed.checkSignature(publicKeyDER: try MCUbootSamples.keyDER("ecdsa-p256")), false)
    }

    func testMalformedImagesGiveTypedErrorsWithOffsets() throws {
        let good = try MCUbootSamples.bytes(MCUbootSamples.unsigned)   // TLV area at 0x7a0c, 0x28 bytes

        XCTAssertEqual(parseError([]), .tooShortForHeader(byteCount: 0))
        XCTAssertEqual(parseError(Array(good.prefix(31))), .tooShortForHeader(byteCount: 31))

        var badMagic = good
        badMagic[0] = 0x00
        XCTAssertEqual(parseError(badMagic), .badMagic(found: 0x96F3_B800))
        XCTAssertEqual(parseError(badMagic)?.description,
                       "offset 0x0: magic is 0x96f3b800, expected 0x96f3b83d: not an MCUboot image (sign it with imgtool)")
        XCTAssertTrue(parseError([0x96, 0xF3, 0xB8, 0x3D] + good[4...])?.description.contains("big-endian") == true)

        var smallHeader = good
        smallHeader[8] = 0x10; smallHeader[9] = 0x00
        XCTAssertEqual(parseError(smallHeader), .headerSizeTooSmall(headerSize: 16))
        XCTAssertEqual(parseError(smallHeader)?.offset, 8)

        let truncatedPayload = Array(good.prefix(1000))
        XCTAssertEqual(parseError(truncatedPayload), .payloadPastEnd(payloadEnd: 0x7A0C, fileSize: 1000))
        XCTAssertEqual(parseError(truncatedPayload)?.description,
                       "offset 0xc: ih_hdr_size + ih_img_size = 31244 bytes, but the file has 1000: the image is truncated")

        XCTAssertEqual(parseError(Array(good.prefix(0x7A0C + 2))),
                       .missingTLVArea(offset: 0x7A0C, magic: 0x6907, fileSize: 0x7A0E))

        var badAreaMagic = good
        badAreaMagic[0x7A0C] = 0x08
        XCTAssertEqual(parseError(badAreaMagic), .badTLVAreaMagic(offset: 0x7A0C, expected: 0x6907, found: 0x6908))

        XCTAssertEqual(parseError(Array(good.prefix(0x7A0C + 20))),
                       .tlvAreaSizeOutOfRange(offset: 0x7A0E, magic: 0x6907, size: 0x28, available: 20))
        var tinyArea = good
        tinyArea[0x7A0E] = 0x02
        XCTAssertEqual(parseError(tinyArea), .tlvAreaSizeOutOfRange(offset: 0x7A0E, magic: 0x6907, size: 2, available: 0x28))

        var longTLV = good
        longTLV[0x7A12] = 0x40                                           // SHA256 TLV length 0x20 -> 0x40
        XCTAssertEqual(parseError(longTLV), .tlvPastAreaEnd(offset: 0x7A10, type: .sha256, length: 64, areaEnd: 0x7A34))
        XCTAssertEqual(parseError(longTLV)?.description,
                       "offset 0x7a10: TLV SHA256 (0x10) has length 64, which runs 32 bytes past the end of its area (0x7a34)")

        var headerCut = good
        headerCut[0x7A0E] = 0x06                                         // 2 bytes left for a 4-byte TLV header
        XCTAssertEqual(parseError(headerCut), .truncatedTLVHeader(offset: 0x7A10, areaEnd: 0x7A12))

        var protected = try MCUbootSamples.bytes(MCUbootSamples.protectedTLVs)
        protected[10] = 0x74                                             // ih_protect_tlv_size 0x73 -> 0x74
        XCTAssertEqual(parseError(protected), .protectedTLVSizeMismatch(offset: 0x8606, header: 0x74, area: 0x73))
        var noProtectedArea = try MCUbootSamples.bytes(MCUbootSamples.protectedTLVs)
        noProtectedArea[10] = 0x00                                       // header says no protected area
        XCTAssertEqual(parseError(noProtectedArea), .badTLVAreaMagic(offset: 0x8604, expected: 0x6907, found: 0x6908))
    }

    /// Every prefix near the TLV areas and every single-byte change in the header and TLV areas
    /// parses or throws; none crashes.
    func testTruncationsAndCorruptionsNeverCrash() throws {
        let good = try MCUbootSamples.bytes(MCUbootSamples.protectedTLVs)
        var failures = 0
        for length in stride(from: 0, to: good.count, by: 97) + Array(0x8600..<good.count) {
            do {
                _ = try MCUbootImage(bytes: Array(good.prefix(length)))
                XCTFail("a \(length)-byte prefix parsed")
            } catch {
                failures += 1
                XCTAssertLessThanOrEqual(error.offset, length)
            }
        }
        XCTAssertGreaterThan(failures, 400)
        let interesting = Array(0..<32) + Array(0x8604..<good.count)
        for index in interesting {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var bytes = good
                bytes[index] ^= mask
                do {
                    let image = try MCUbootImage(bytes: bytes)
                    XCTAssertLessThanOrEqual(image.tlvArea.endOffset, bytes.count)
                } catch {
                    XCTAssertLessThanOrEqual(error.offset, bytes.count)
                }
            }
        }
    }

    func testVersionStrings() {
        XCTAssertEqual(MCUbootImageVersion("1.2.3+4"), MCUbootImageVersion(major: 1, minor: 2, revision: 3, build: 4))
        XCTAssertEqual(MCUbootImageVersion("0.0.4+0")?.description, "0.0.4+0")
        XCTAssertEqual(MCUbootImageVersion("2.1")?.description, "2.1.0+0")
        XCTAssertEqual(MCUbootImageVersion("255.255.65535+4294967295")?.build, 4_294_967_295)
        for bad in ["", "1.2.3.4", "256.0.0", "1.2.65536", "1.2.3+", "1..3", "v1.2.3", "1.2.3+4294967296", "-1.0.0"] {
            XCTAssertNil(MCUbootImageVersion(bad), bad)
        }
        XCTAssertLessThan(MCUbootImageVersion("1.2.3+4")!, MCUbootImageVersion("1.2.10")!)
    }

    func testTLVTypeNamesAndFlags() {
        XCTAssertEqual(MCUbootTLVType.sha256.description, "SHA256 (0x10)")
        XCTAssertEqual(MCUbootTLVType.keyHash.description, "KEYHASH (0x1)")
        XCTAssertEqual(MCUbootTLVType.ecdsaSignature.name, "ECDSASIG")
        XCTAssertEqual(MCUbootTLVType(rawValue: 0x99).description, "0x99")
        XCTAssertEqual(MCUbootTLVType(rawValue: 0xA001).description, "0xa001")
        XCTAssertEqual(MCUbootImageFlags(rawValue: 0x0000_1420).names, ["RAM_LOAD", "COMPRESSED_LZMA2", "0x00001000"])
        XCTAssertEqual(MCUbootImageFlags([]).description, "0x00000000 (none)")
        XCTAssertTrue(MCUbootImageFlags.encryptedAES256.isEncrypted)
    }
}
