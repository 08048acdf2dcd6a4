import DFUBytes
import DFUPackage

/// The external SPI flash of a DA1458x with two image banks, as SDK 6's SUOTA receiver and the
/// secondary bootloader see it: a product header giving the two banks' offsets (signature
/// `70 52`), and in each bank a 64-byte image header ("pQ", valid flag, image id, code size,
/// CRC, version, timestamp) followed by the code. Only what the receiver and the bootloader
/// read is kept: each bank's header as written and the code bytes written after it.
///
/// The default layout is the DA14580 multi-part image of Dialog's SUOTA application note
/// scripts (`mkimage multi spi secondary_bootloader.bin img1 0x8000 img2 0x13000 0x1F000`, e.g.
/// `yuanmingri/BikeBle` Firmware/makeimage/multi_genimg.bat): banks of 0xB000 bytes, so at most
/// 44,992 bytes of code (app_suotar.c `app_read_image_headers`: `codesize > offset2 - offset1 - 64`
/// is an invalid image size).
struct SUOTAFlash: Sendable, Equatable {
    /// One image bank.
    struct Bank: Sendable, Equatable {
        /// The header as written; nil while the bank is erased (all 0xFF).
        var header: SUOTAImageHeader?
        /// The code bytes written after the header, in order.
        var code: [UInt8] = []

        /// `validflag == STATUS_VALID_IMAGE` and signature "pQ": the bootloader considers it
        /// (secondary bootloader `loadActiveImage`), the receiver will not overwrite it blindly.
        var isValid: Bool {
            guard let header else { return false }
            return header.validFlag == SUOTAImageHeader.validMark && header.hasSignature
        }

        /// The code is whole and its CRC-32 matches the header (the bootloader's check).
        var passesCRC: Bool {
            guard let header, code.count >= Int(header.codeSize) else { return false }
            return CRC32.checksum(Array(code.prefix(Int(header.codeSize)))) == header.crc32
        }

        /// The header (as mkimage wrote it, with its valid flag and id) and the code: what a
        /// `.img` file of this image holds.
        func fileBytes(asMkimageWrote: Bool = true) -> [UInt8]? {
            guard var header else { return nil }
            if asMkimageWrote {
                header.validFlag = SUOTAImageHeader.validMark
                header.imageID = 0xFF
            }
            return header.encoded + code.prefix(Int(header.codeSize))
        }
    }

    static let defaultOffsets = (first: 0x8000, second: 0x13000)
    static let sectorSize = 4096

    /// The product header's bank offsets; nil: no valid product header (the receiver answers
    /// INVAL_PRODUCT_HDR).
    var offsets: (first: Int, second: Int)?
    var banks = [Bank(), Bank()]

    init(offsets: (first: Int, second: Int)? = defaultOffsets) {
        self.offsets = offsets
    }

    static func == (lhs: SUOTAFlash, rhs: SUOTAFlash) -> Bool {
        lhs.offsets?.first == rhs.offsets?.first && lhs.offsets?.second == rhs.offsets?.second && lhs.banks == rhs.banks
    }

    /// The largest code a bank takes: `offset2 - offset1 - 64`.
    var maximumCodeSize: Int {
        guard let offsets else { return 0 }
        return offsets.second - offsets.first - SUOTAImageHeader.size
    }

    /// Puts a whole image (header + code, as a `.img` file holds it) into bank `index` (0 or 1)
    /// as valid with `imageID`: a device programmed at the factory, or an earlier update.
    mutating func program(bank index: Int, file: [UInt8], imageID: UInt8) {
        guard var header = try? SUOTAImageHeader(decoding: file) else { return }
        header.validFlag = SUOTAImageHeader.validMark
        header.imageID = imageID
        banks[index] = Bank(header: header, code: Array(file.dropFirst(SUOTAImageHeader.size)))
    }

    /// The bank the secondary bootloader runs (`loadActiveImage`): of the valid banks the newer
    /// by image id (`findlatest`: 0xFF against 0 counts 0 as newer, else the larger id, bank 1
    /// on a tie); when its code fails the CRC, the other valid bank if that one passes; nil when
    /// nothing boots.
    var bootBank: Int? {
        let valid = banks.indices.filter { banks[$0].isValid }
        guard !valid.isEmpty else { return nil }
        var order = valid
        if valid.count == 2, let first = banks[0].header?.imageID, let second = banks[1].header?.imageID {
            order = Self.latestFirst(first, second) ? [0, 1] : [1, 0]
        }
        return order.first { banks[$0].passesCRC }
    }

    /// `findlatest(id1, id2)`: whether bank 1's image is the latest.
    static func latestFirst(_ id1: UInt8, _ id2: UInt8) -> Bool {
        if id1 == 0xFF && id2 == 0 { return false }
        if id2 == 0xFF && id1 == 0 { return true }
        return id1 >= id2
    }

    /// `app_find_old_img(id1, id2)`: the bank (0 or 1) holding the older of two valid images.
    static func olderBank(_ id1: UInt8, _ id2: UInt8) -> Int {
        if id1 == 0xFF && id2 == 0xFF { return 0 }
        if id1 == 0xFF && id2 == 0 { return 0 }
        if id2 == 0xFF && id1 == 0 { return 1 }
        return id1 > id2 ? 1 : 0
    }

    /// Sectors erased for an image of `codeSize` bytes (`app_erase_flash_sectors(base, codesize + 64)`).
    static func sectors(forCodeSize codeSize: Int) -> Int {
        max(1, (codeSize + SUOTAImageHeader.size + sectorSize - 1) / sectorSize)
    }
}
