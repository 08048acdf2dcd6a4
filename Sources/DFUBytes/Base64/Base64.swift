/// Base64 with the standard alphabet and `=` padding (RFC 4648 section 4), over bytes rather
/// than text, for wire formats that carry base64 lines (SMP over a console).
///
/// Decoding is strict about shape and lenient about bits, like Python's `base64.b64decode` and
/// mbed TLS's `mbedtls_base64_decode` (which Zephyr and MCUboot use): the text must be a whole
/// number of 4-character groups, `=` may only pad the last group, and any other character is
/// refused; the unused low bits of a padded group are not checked.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let padding = UInt8(ascii: "=")

    /// Each byte's 6-bit value, or 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    /// Why `decode` refused its text: the index (from the text's start) of the first character
    /// that cannot stand where it is, or of the start of a last group that is cut short.
    package struct DecodingError: Error, Sendable, Hashable {
        /// Index of the offending character, or of the start of a short last group.
        package let index: Int

        /// A refusal at `index`.
        package init(index: Int) {
            self.index = index
        }
    }

    /// The base64 text of `bytes`, padded with `=` to a multiple of four characters.
    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let first = bytes[index]
            let second = remaining > 1 ? bytes[index + 1] : 0
            let third = remaining > 2 ? bytes[index + 2] : 0
            text.append(alphabet[Int(first >> 2)])
            text.append(alphabet[Int((first & 0x03) << 4 | second >> 4)])
            text.append(remaining > 1 ? alphabet[Int((second & 0x0F) << 2 | third >> 6)] : padding)
            text.append(remaining > 2 ? alphabet[Int(third & 0x3F)] : padding)
            index += 3
        }
        return text
    }

    /// The bytes `text` encodes, or where it stops being base64.
    package static func decode(_ text: ArraySlice<UInt8>) -> Result<[UInt8], DecodingError> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        let start = text.startIndex
        guard text.count % 4 == 0 else {
            return .failure(DecodingError(index: text.count - text.count % 4))
        }
        var groupStart = start
        while groupStart < text.endIndex {
            let isLastGroup = groupStart + 4 == text.endIndex
            var sextets: [UInt8] = []
            for index in groupStart..<groupStart + 4 {
                let character = text[index]
                let value = values[Int(character)]
                let position = index - groupStart
                if value != 0xFF {
                    sextets.append(value)
                } else if character == padding, isLastGroup,
                          position == 3 || (position == 2 && text[groupStart + 3] == padding) {
                    continue
                } else {
                    return .failure(DecodingError(index: index - start))
                }
            }
            bytes.append(sextets[0] << 2 | sextets[1] >> 4)
            if sextets.count > 2 { bytes.append(sextets[1] << 4 | sextets[2] >> 2) }
            if sextets.count > 3 { bytes.append(sextets[2] << 6 | sextets[3]) }
            groupStart += 4
        }
        return .success(bytes)
    }
}
