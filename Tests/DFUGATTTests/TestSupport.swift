import XCTest

/// A failure a buffer can end with.
struct TestFailure: Error, Equatable {
    var name: String
    init(_ name: String) { self.name = name }
}

/// Waits (at most two seconds) until `condition` holds: for another task to reach a wait.
func eventually(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                _ condition: @Sendable () -> Bool) async {
    let deadline = ContinuousClock.now + .seconds(2)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            XCTFail("timed out waiting until \(what)", file: file, line: line)
            return
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// What a test's tasks did, in order.
actor Journal {
    private(set) var entries: [String] = []
    func note(_ entry: String) { entries.append(entry) }
}
