import DFUBytes

/// A TI OAD image for the BLE5-Stack (SimpleLink CC13xx/CC26xx SDK; `oad_image_tool` output,
/// e.g. `simple_peripheral_oad_offchip_..._oad.bin`): the 44-byte `TIOADImageHeader`, its
/// segments, then the code. The checks are the ones the device makes, done before anything is
/// sent:
/// - the header is whole and `hdrLen` covers it;
/// - `len` is the file's size (the device takes exactly `len` bytes: `oadBlkTot` comes from it,
///   and a last block of another size aborts the OAD);
/// - the segments fit in `len` and one of them is the image payload (the BIM copies the image
///   to its `startAddr`);
/// - `crcStat` is not CRC_INVALID (oad.c `oadCheckDL` refuses such an image at once);
/// - `crc32` is the CRC-32 of bytes 12 to `len` (crc32.c `CRC32_calc` from `IMG_DATA_OFFSET`;
///   `computeCRC32.py` writes it so), which the device computes once the last block arrived.
///
/// Recognized by a published `imgID` ("CC26x2R1", "CC13x2R1", "OAD IMG "...) or, since TI
/// recommends that products set their own `imgID`, by the header's fixed values: BIM version
/// 3, metadata version 1, a known wireless technology and `hdrLen` 44.
package enum TIOADImageFormat: StandaloneImageFormat {
    package static let name = "ti-oad"
    package static let description = "TI OAD image (BLE5-Stack, SimpleLink CC13xx/CC26xx oad_image_tool)"
    package static let profile = "ti-oad"

    package static func recognizes(head: [UInt8], path: String) -> Bool {
        guard head.count >= TIOADImageHeader.size, let header = try? TIOADImageHeader(decoding: head) else { return false }
        if header.hasPublishedImageID { return true }
        let knownTechnologies: [TIOADWirelessTechnology] = [.ble, .tiMACSubGHz, .tiMAC2_4GHz, .zigbee, .rf4ce, .thread,
                                                           .easyLink, .mioty, .wbms]
        return header.bimVersion == TIOADImageHeader.bimVersion && header.metadataVersion == TIOADImageHeader.metadataVersion
            && knownTechnologies.contains(header.technology) && header.headerLength == UInt16(TIOADImageHeader.size)
    }

    package static func read(_ bytes: [UInt8], path: String) throws(PackageError) -> StandaloneImage {
        let header: TIOADImageHeader
        do {
            header = try TIOADImageHeader(decoding: bytes)
        } catch {
            let check = VerificationCheck(check: .fileFormat, passed: false, detail: "header: \(error)")
            return StandaloneImage(format: name, version: "", checks: [check], details: [])
        }
        let segments = Result { () throws(TIOADSegmentError) in
            try TIOADSegment.segments(of: bytes, length: Int(header.length))
        }
        return StandaloneImage(
            format: name, version: header.softwareVersionText,
            checks: [headerCheck(header), lengthCheck(header, fileSize: bytes.count), segmentsCheck(segments, header: header),
                     crcStatusCheck(header), crcCheck(header, bytes: bytes)],
            details: details(header, segments: (try? segments.get()) ?? [], bytes: bytes))
    }

    private static func headerCheck(_ header: TIOADImageHeader) -> VerificationCheck {
        let passed = header.headerLength >= UInt16(TIOADImageHeader.size)
        let versions = "BIM version \(header.bimVersion), metadata version \(header.metadataVersion)"
        return VerificationCheck(
            check: .fileFormat, passed: passed,
            detail: passed ? "header: imgID '\(header.imageIDText)', \(versions), hdrLen \(header.headerLength)"
                : "header: hdrLen is \(header.headerLength), less than the 44-byte core header",
            declared: "\(header.headerLength)", actual: "\(TIOADImageHeader.size)")
    }

    private static func lengthCheck(_ header: TIOADImageHeader, fileSize: Int) -> VerificationCheck {
        let passed = Int(header.length) == fileSize
        let detail: String
        if passed {
            detail = "len: \(fileSize) bytes, the whole file"
        } else if Int(header.length) < fileSize {
            detail = "len: the header says \(header.length) bytes, the file has \(fileSize): a device would take "
                + "the first \(header.length) and the blocks would not match the file"
        } else {
            detail = "len: the header says \(header.length) bytes, the file has only \(fileSize): it is truncated"
        }
        return VerificationCheck(check: .fileFormat, passed: passed, detail: detail,
                                 declared: "\(header.length) bytes", actual: "\(fileSize) bytes")
    }

    private static func segmentsCheck(_ segments: Result<[TIOADSegment], TIOADSegmentError>,
                                      header: TIOADImageHeader) -> VerificationCheck {
        switch segments {
        case let .failure(error):
            return VerificationCheck(check: .fileFormat, passed: false, detail: "segments: \(error)")
        case let .success(list):
            guard let payload = list.first(where: { [.contiguous, .nonContiguous].contains($0.type) }) else {
                let found = list.isEmpty ? "none" : list.map(\.type.description).joined(separator: ", ")
                return VerificationCheck(check: .fileFormat, passed: false,
                                         detail: "segments: no image payload segment (found \(found)); the BIM "
                                             + "finds the image's start address there")
            }
            return VerificationCheck(check: .fileFormat, passed: true,
                                     detail: "segments: \(list.map(\.type.description).joined(separator: ", ")); "
                                         + "the payload starts at byte \(payload.offset)")
        }
    }

    private static func crcStatusCheck(_ header: TIOADImageHeader) -> VerificationCheck {
        let passed = header.crcStatus != TIOADImageHeader.crcInvalid
        return VerificationCheck(
            check: .fileFormat, passed: passed,
            detail: passed ? "crcStat: 0x\(hex2(header.crcStatus))"
                : "crcStat: 0xFC marks the image's CRC invalid; a device refuses it after the last block (CRC_ERR)",
            declared: "0x" + hex2(header.crcStatus), actual: passed ? "0x" + hex2(header.crcStatus) : "0xFF")
    }

    private static func crcCheck(_ header: TIOADImageHeader, bytes: [UInt8]) -> VerificationCheck {
        let declared = hex32(header.crc32)
        guard let actual = TIOADImageHeader.crc(of: bytes, length: Int(header.length)) else {
            return VerificationCheck(check: .fileFormat, passed: false,
                                     detail: "crc32: the header's CRC-32 \(declared) covers bytes 12 to \(header.length); "
                                         + "the file has \(bytes.count)",
                                     declared: declared, actual: nil)
        }
        let passed = actual == header.crc32
        return VerificationCheck(
            check: .fileFormat, passed: passed,
            detail: passed ? "crc32: the CRC-32 of bytes 12 to \(header.length) is \(declared), as the header says"
                : "crc32: the header says \(declared), bytes 12 to \(header.length) give \(hex32(actual))",
            declared: declared, actual: hex32(actual))
    }

    private static func details(_ header: TIOADImageHeader, segments: [TIOADSegment], bytes: [UInt8]) -> [StandaloneImage.Detail] {
        var details: [StandaloneImage.Detail] = [
            .init("image id", "'\(header.imageIDText)'" + (header.hasPublishedImageID ? "" : " (not one of TI's published values)")),
            .init("image type", header.imageType.description
                + (header.imageType.isRefusedByDevices ? " (devices refuse this type over the air)" : "")),
            .init("image number", "\(header.imageNumber)"),
            .init("software version", header.softwareVersionText),
            .init("wireless technology", header.technology.description),
            .init("BIM version", "\(header.bimVersion)"),
            .init("metadata version", "\(header.metadataVersion)"),
            .init("length", "\(header.length) bytes"),
            .init("crc32", hex32(header.crc32)),
            .init("crc status", "0x" + hex2(header.crcStatus)),
            .init("copy status", "0x" + hex2(header.copyStatus)),
            .init("program entry", hex32(header.programEntry)),
            .init("image end address", hex32(header.endAddress)),
            .init("header length", "\(header.headerLength)"),
        ]
        for (index, segment) in segments.enumerated() {
            details.append(.init("segment \(index)", segment.summary))
        }
        details.append(.init("identify payload", header.identifyPayload.hexString))
        return details
    }

    private static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    private static func hex2(_ value: UInt8) -> String {
        (value < 0x10 ? "0" : "") + String(value, radix: 16, uppercase: true)
    }
}
