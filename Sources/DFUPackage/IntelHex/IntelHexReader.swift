import Foundation

/// Reads Intel HEX files into an `IntelHexImage`.
///
/// Every record's checksum is verified. Blank lines and `\r\n` endings are accepted; anything
/// after the end-of-file record, overlapping data, and data spanning more than
/// `ZipReadLimit.hardLimit` bytes (which would not fit in a package) are errors.
package enum IntelHexReader {
    /// Reads and parses the file at `path`.
    package static func read(path: String) throws(PackageError) -> IntelHexImage {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .io(path: path, operation: "read Intel HEX file", reason: error.localizedDescription)
        }
        return try parse([UInt8](data), fileName: path)
    }

    /// Parses Intel HEX text; `fileName` only goes into error messages.
    package static func parse(_ text: String, fileName: String = "<input>") throws(PackageError) -> IntelHexImage {
        try parse(Array(text.utf8), fileName: fileName)
    }

    /// Parses Intel HEX bytes (ASCII); `fileName` only goes into error messages.
    package static func parse(_ bytes: [UInt8], fileName: String = "<input>") throws(PackageError) -> IntelHexImage {
        var chunks: [(address: UInt64, data: [UInt8], line: Int)] = []
        var base: UInt64 = 0
        var startAddress: IntelHexImage.StartAddress?
        var endOfFileLine: Int?
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)

        for (index, rawLine) in lines.enumerated() {
            let lineNumber = index + 1
            var line = rawLine[...]
            while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                line = line.dropLast()
            }
            if line.isEmpty { continue }
            if let endOfFileLine {
                throw .badIntelHex(file: fileName, line: lineNumber,
                                   problem: "content after the end-of-file record on line \(endOfFileLine)")
            }
            let record: IntelHexRecord
            do {
                record = try IntelHexRecord.decode(line)
            } catch {
                throw .badIntelHex(file: fileName, line: lineNumber, problem: error.message)
            }
            switch record.type {
            case .data:
                let address = base + UInt64(record.offset)
                guard address + UInt64(record.data.count) <= 0x1_0000_0000 else {
                    throw .badIntelHex(file: fileName, line: lineNumber, problem: "data extends past the 4 GiB address space")
                }
                if !record.data.isEmpty { chunks.append((address, record.data, lineNumber)) }
            case .endOfFile:
                endOfFileLine = lineNumber
            case .extendedSegmentAddress:
                base = UInt64(record.bigEndianValue) << 4
            case .extendedLinearAddress:
                base = UInt64(record.bigEndianValue) << 16
            case .startSegmentAddress:
                let value = record.bigEndianValue
                startAddress = .segment(codeSegment: UInt16(value >> 16), instructionPointer: UInt16(value & 0xFFFF))
            case .startLinearAddress:
                startAddress = .linear(record.bigEndianValue)
            }
        }
        guard endOfFileLine != nil else {
            throw .badIntelHex(file: fileName, line: lines.count, problem: "no end-of-file record (:00000001FF); the file may be truncated")
        }
        guard !chunks.isEmpty else {
            throw .badIntelHex(file: fileName, line: lines.count, problem: "no data records")
        }
        return try assemble(chunks, startAddress: startAddress, fileName: fileName)
    }

    /// Lays the data records out in one block, filling gaps with 0xFF.
    private static func assemble(_ chunks: [(address: UInt64, data: [UInt8], line: Int)],
                                 startAddress: IntelHexImage.StartAddress?,
                                 fileName: String) throws(PackageError) -> IntelHexImage {
        let sorted = chunks.sorted { $0.address < $1.address }
        let low = sorted[0].address
        var high = low
        var highLine = sorted[0].line
        for chunk in sorted {
            if chunk.address < high {
                throw .badIntelHex(file: fileName, line: chunk.line,
                                   problem: "data at 0x\(String(chunk.address, radix: 16, uppercase: true)) overlaps data from line \(highLine)")
            }
            high = chunk.address + UInt64(chunk.data.count)
            highLine = chunk.line
        }
        let span = high - low
        guard span <= UInt64(ZipReadLimit.hardLimit) else {
            throw .badIntelHex(file: fileName, line: highLine,
                               problem: "data spans \(span) bytes from 0x\(String(low, radix: 16, uppercase: true)) to 0x\(String(high, radix: 16, uppercase: true)), more than the \(ZipReadLimit.hardLimit)-byte limit; split the image")
        }
        var bytes = [UInt8](repeating: 0xFF, count: Int(span))
        for chunk in sorted {
            let start = Int(chunk.address - low)
            bytes.replaceSubrange(start..<(start + chunk.data.count), with: chunk.data)
        }
        return IntelHexImage(baseAddress: UInt32(low), bytes: bytes, startAddress: startAddress)
    }
}
