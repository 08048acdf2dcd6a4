import DFUBytes

/// The images a recording stores once (as blob lines), and how a written value is told as
/// parts that point into them: any run of at least `minimumRun` bytes equal to a slice of a blob
/// is written as `{"blob":SHA,"offset":O,"length":L}` instead of hex.
///
/// The blobs are indexed once by their 8-byte windows at offsets that are multiples of 8: a run
/// of 32 equal bytes holds such a window wherever it starts. A value is scanned byte by byte for
/// a window the index knows (trying first where the last match ended, since a transfer sends
/// an image in order), and each hit is grown both ways as far as the bytes agree.
struct BlobIndex {
    /// The shortest run written as a blob slice.
    static let minimumRun = 32
    private static let window = 8

    /// One stored image.
    struct Blob {
        var sha256: String
        var bytes: [UInt8]
    }

    /// A piece of a value: bytes as they are, or a slice of a blob.
    enum Part: Equatable {
        case bytes([UInt8])
        case slice(blob: Int, offset: Int, length: Int)
    }

    private(set) var blobs: [Blob] = []
    /// Blob and offset of the first aligned window with these 8 bytes.
    private var windows: [UInt64: (blob: Int, offset: Int)] = [:]
    /// Where the last slice ended, to try first.
    private var lastEnd: (blob: Int, offset: Int)?

    /// Adds `bytes` (once per content; images with the same bytes share a blob).
    mutating func add(_ bytes: [UInt8]) {
        let sha = SHA256.digest(bytes).hexString
        guard !blobs.contains(where: { $0.sha256 == sha }) else { return }
        let index = blobs.count
        blobs.append(Blob(sha256: sha, bytes: bytes))
        var offset = 0
        while offset + Self.window <= bytes.count {
            let key = Self.key(bytes, at: offset)
            if windows[key] == nil { windows[key] = (index, offset) }
            offset += Self.window
        }
    }

    /// `value` as parts: all bytes when no run of `minimumRun` matches a blob.
    mutating func parts(of value: [UInt8]) -> [Part] {
        guard !blobs.isEmpty, value.count >= Self.minimumRun else { return [.bytes(value)] }
        var parts: [Part] = []
        var literalStart = 0
        var position = 0
        while position + Self.window <= value.count {
            guard let (blob, offset) = candidate(value, at: position) else {
                position += 1
                continue
            }
            let bytes = blobs[blob].bytes
            var start = position, blobStart = offset
            while start > literalStart, blobStart > 0, value[start - 1] == bytes[blobStart - 1] {
                start -= 1
                blobStart -= 1
            }
            var end = position, blobEnd = offset
            while end < value.count, blobEnd < bytes.count, value[end] == bytes[blobEnd] {
                end += 1
                blobEnd += 1
            }
            guard end - start >= Self.minimumRun else {
                position += 1
                continue
            }
            if start > literalStart { parts.append(.bytes(Array(value[literalStart..<start]))) }
            parts.append(.slice(blob: blob, offset: blobStart, length: end - start))
            lastEnd = (blob, blobEnd)
            literalStart = end
            position = end
        }
        if literalStart < value.count { parts.append(.bytes(Array(value[literalStart...]))) }
        return parts
    }

    /// The blob offset whose 8 bytes equal `value`'s at `position`: where the last slice ended
    /// if it fits, else the index's.
    private func candidate(_ value: [UInt8], at position: Int) -> (Int, Int)? {
        if let (blob, offset) = lastEnd, offset + Self.window <= blobs[blob].bytes.count,
           blobs[blob].bytes[offset..<offset + Self.window].elementsEqual(value[position..<position + Self.window]) {
            return (blob, offset)
        }
        guard let found = windows[Self.key(value, at: position)] else { return nil }
        return (found.blob, found.offset)
    }

    private static func key(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var key: UInt64 = 0
        for index in offset..<offset + window { key = key << 8 | UInt64(bytes[index]) }
        return key
    }

    /// `value` as the file writes it: hex text when it is all bytes, else an array of hex
    /// strings and blob slices.
    mutating func json(_ value: [UInt8]) -> String {
        let parts = parts(of: value)
        if parts.count == 1, case let .bytes(bytes) = parts[0] { return JSONLine.quoted(bytes.hexString) }
        return JSONLine.array(parts.map { part in
            switch part {
            case let .bytes(bytes): return JSONLine.quoted(bytes.hexString)
            case let .slice(blob, offset, length):
                var line = JSONLine()
                line.string("blob", blobs[blob].sha256)
                line.int("offset", offset)
                line.int("length", length)
                return line.json
            }
        })
    }
}
