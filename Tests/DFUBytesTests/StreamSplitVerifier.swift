import XCTest

/// Feeds one byte stream to fresh decoders in many splits and checks that every split gives the
/// outputs the whole stream gives (the idea of swift-nio's ByteToMessageDecoderVerifier): byte by
/// byte, every cut into two and (for short streams) three pieces, and seeded random pieces.
///
/// `feed` gives a piece to the decoder; `finish`, when given, runs after the last piece (a
/// deframer's `idle()`), and its outputs count too.
func assertSameOutputsInEverySplit<Decoder, Output: Equatable>(
    of stream: [UInt8], expected: [Output], make: () -> Decoder,
    feed: (inout Decoder, [UInt8]) -> [Output], finish: ((inout Decoder) -> [Output])? = nil,
    file: StaticString = #filePath, line: UInt = #line
) {
    func run(_ pieces: [ArraySlice<UInt8>]) -> [Output] {
        var decoder = make()
        var outputs = pieces.flatMap { feed(&decoder, Array($0)) }
        if let finish { outputs += finish(&decoder) }
        return outputs
    }
    func check(_ pieces: [ArraySlice<UInt8>], _ what: @autoclosure () -> String) -> Bool {
        let outputs = run(pieces)
        guard outputs == expected else {
            XCTFail("\(what()): \(outputs) is not \(expected)", file: file, line: line)
            return false
        }
        return true
    }

    guard check([stream[...]], "whole stream") else { return }
    guard check(stream.indices.map { stream[$0...$0] }, "byte by byte") else { return }
    for cut in 0...stream.count {
        guard check([stream[..<cut], stream[cut...]], "cut at \(cut)") else { return }
    }
    if stream.count <= 80 {
        for first in 0...stream.count {
            for second in first...stream.count {
                let pieces = [stream[..<first], stream[first..<second], stream[second...]]
                guard check(pieces, "cut at \(first) and \(second)") else { return }
            }
        }
    }
    var random = SplitRandom(seed: UInt64(stream.count) &* 0x9E37_79B9_7F4A_7C15 | 1)
    for round in 0..<50 {
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < stream.count {
            let length = min(stream.count - start, 1 + random.next(below: 17))
            pieces.append(stream[start..<start + length])
            start += length
        }
        guard check(pieces, "random split \(round): piece lengths \(pieces.map(\.count))") else { return }
    }
}

/// xorshift64, so that the random splits are the same in every run.
private struct SplitRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }
}
