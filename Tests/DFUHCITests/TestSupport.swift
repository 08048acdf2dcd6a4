import XCTest
import DFUBytes
@testable import DFUHCI

func bytes(_ hex: String, file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
    guard let value = [UInt8](hex: hex) else {
        XCTFail("bad hex literal \(hex)", file: file, line: line)
        return []
    }
    return value
}

struct TestTimeout: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out: \(what)" }
}

/// Runs `body`, failing (instead of hanging) when it takes longer than `seconds`.
func withTimeout<Value: Sendable>(_ seconds: Double, _ what: String,
                                  _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TestTimeout(what: what) }
        return value
    }
}

/// Catches a typed HCIError from an async throwing call.
func hciError(_ body: () async throws(HCIError) -> Void) async -> HCIError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
