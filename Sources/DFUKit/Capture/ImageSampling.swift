import DFUCapture
import DFUEngine

/// Tells whether a capture's client sent a given image: eight-byte samples taken across the
/// image, each at a multiple of 16 (where protocols that cut an image into small pieces, as
/// Telink's 16-byte packets, start one), are looked for in what the client wrote (each handle's
/// values joined, so a sample cut between two writes is still found).
enum ImageSampling {
    /// How many samples an image is checked with.
    static let sampleCount = 8

    /// Samples found of the ones taken, over every image.
    static func found(_ images: [FlashImage], in session: CapturedSession) -> (found: Int, taken: Int) {
        var written: [UInt16: [UInt8]] = [:]
        for connection in session.connections {
            for operation in connection.operations {
                if case let .write(handle, value, _) = operation.kind { written[handle, default: []] += value }
            }
        }
        var found = 0, taken = 0
        for image in images where image.data.count >= 16 {
            for index in 0..<sampleCount {
                let offset = (image.data.count - 8) * index / max(1, sampleCount - 1) / 16 * 16
                let sample = Array(image.data[offset..<offset + 8])
                taken += 1
                if written.values.contains(where: { contains($0, sample) }) { found += 1 }
            }
        }
        return (found, taken)
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
