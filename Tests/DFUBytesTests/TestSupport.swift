import Foundation
import XCTest
import DFUBytes

/// Bytes from hex text in a test vector; fails the test (and returns []) on a typo.
func hexBytes(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
    guard let bytes = [UInt8](hex: text) else {
        XCTFail("bad hex in test vector: \(text)", file: file, line: line)
        return []
    }
    return bytes
}

/// Reads a file from Fixtures/ beside this source file (see Fixtures/generate.sh).
func fixture(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name)
    return [UInt8](try Data(contentsOf: url))
}

func fixtureText(_ name: String) throws -> String {
    String(decoding: try fixture(name), as: UTF8.self)
}

/// A deterministic xorshift64 byte stream; the same generator in Python produced the golden
/// checksums used in ChecksumTests.
func pseudoRandomBytes(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state >> 32)
    }
}

/// Runs `body` and returns the typed error it throws, failing the test if it throws none.
func expectError<Failure: Error>(_ body: () throws(Failure) -> Void, file: StaticString = #filePath,
                                 line: UInt = #line) -> Failure? {
    do {
        try body()
    } catch {
        return error
    }
    XCTFail("expected an error", file: file, line: line)
    return nil
}
