import DFUCapture
import Foundation
import XCTest

/// The fixtures folder (excluded from the target: read by path).
let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

func fixturePath(_ name: String) -> String { fixturesDirectory.appendingPathComponent(name).path }

func fixtureBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: fixturesDirectory.appendingPathComponent(name)))
}

/// Runs tshark on `path` and returns one row per ATT PDU: opcode, handle, value and (CCCD
/// writes, which Wireshark decodes) the configuration, as it prints them; skips the test when tshark is absent.
func tsharkATTRows(_ path: String, filter: String = "btatt") throws -> [[String]] {
    let candidates = ["/usr/bin/tshark", "/usr/local/bin/tshark"]
    guard let tshark = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw XCTSkip("tshark (Wireshark) is not installed: the cross-check with Wireshark's dissector cannot run")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tshark)
    process.arguments = ["-r", path, "-Y", filter, "-T", "fields", "-e", "btatt.opcode", "-e", "btatt.handle",
                         "-e", "btatt.value", "-e", "btatt.characteristic_configuration_client"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map {
        $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
}

/// Reads tshark's ATT rows the way `CapturedOperation`s describe them, with Wireshark's own
/// decoding: writes, commands, prepared writes joined at Execute Write, reads and read values
/// (blobs joined), notifications. `cccds` are the handles written as subscriptions.
func operationLines(fromTShark rows: [[String]], cccds: Set<UInt16> = []) -> [String] {
    var lines: [String] = []
    var prepared: (handle: String, value: String)?
    for row in rows where row.count >= 3 {
        let (opcode, handle, value) = (row[0], row[1], row[2])
        switch opcode {
        case "0x12", "0x52":
            if let number = UInt16(handle.dropFirst(2), radix: 16), cccds.contains(number) {
                let configuration = row.count > 3 ? UInt16(row[3].dropFirst(2), radix: 16) : nil
                lines.append("subscribe \(handle) \(configuration.map { String($0) } ?? value)")
            } else {
                lines.append("write \(handle) \(value) \(opcode == "0x12" ? "request" : "command")")
            }
        case "0x16":
            prepared = (handle, (prepared?.value ?? "") + value)
        case "0x18":
            if let prepared { lines.append("write \(prepared.handle) \(prepared.value) request") }
            prepared = nil
        case "0x0a": lines.append("read \(handle)")
        case "0x0b": lines.append("value \(value)")
        case "0x0d": lines[lines.count - 1] += value
        case "0x1b": lines.append("notification \(handle) \(value)")
        default: break
        }
    }
    return lines
}

/// The same lines from our operations.
func operationLines(_ operations: [CapturedOperation]) -> [String] {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    func handle(_ value: UInt16) -> String { String(format: "0x%04x", value) }
    return operations.compactMap { operation in
        switch operation.kind {
        case let .write(h, value, withResponse):
            return "write \(handle(h)) \(hex(value)) \(withResponse ? "request" : "command")"
        case let .subscribe(descriptor, _, configuration):
            return "subscribe \(handle(descriptor)) \(configuration)"
        case let .read(h): return "read \(handle(h))"
        case let .readValue(value): return "value \(hex(value))"
        case let .notification(h, value, _): return "notification \(handle(h)) \(hex(value))"
        default: return nil
        }
    }
}
