import DFUBytes

/// Lays an OAD image out as TI's `oad_image_tool` 2.1.2 leaves it (imgBinUtil.py
/// `updateImgLen`, computeCRC32.py): the core header of an application, one contiguous image
/// payload segment at byte 44 whose `len` runs to the end, the code, `len` the whole image and
/// `crc32` the CRC-32 of bytes 12 to the end, written last. For tests, sweeps and the fault
/// matrix (the samples in firmware-samples/ti are made the same way by make-ti-oad-samples.py).
public enum TIOADImageBuilder {
    /// `code` after the 56 bytes of header and segment; `startAddress` is where the BIM copies
    /// the image (a multiple of the 8 KiB internal flash page for a device to accept it).
    public static func image(code: [UInt8], imageID: String = "CC26x2R1", softwareVersion: String = "0001",
                             imageType: TIOADImageType = .applicationStackLibrary, startAddress: UInt32 = 0) -> [UInt8] {
        let length = TIOADImageHeader.size + 12 + code.count
        var header = TIOADImageHeader(imageID: imageID, imageType: imageType, softwareVersion: softwareVersion,
                                      length: UInt32(length), programEntry: startAddress + 0x91,
                                      endAddress: startAddress + UInt32(length - 1))
        var writer = ByteWriter(capacity: length)
        writer.append(bytes: header.encoded)
        writer.append(byte: TIOADSegmentType.contiguous.rawValue)
        writer.append(TIOADWirelessTechnology.ble.rawValue, endianness: .little)
        writer.append(byte: TIOADImageHeader.defaultState)
        writer.append(UInt32(length - TIOADImageHeader.size), endianness: .little)
        writer.append(startAddress, endianness: .little)
        writer.append(bytes: code)
        var bytes = writer.bytes
        header.crc32 = TIOADImageHeader.crc(of: bytes, length: length) ?? 0
        bytes.replaceSubrange(0..<TIOADImageHeader.size, with: header.encoded)
        return bytes
    }
}
