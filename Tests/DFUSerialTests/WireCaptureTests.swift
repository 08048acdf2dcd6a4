@testable import DFUSerial
import DFUWire
import Foundation
import XCTest

/// A wire in memory on a virtual clock: sends are kept, queued chunks arrive at their time.
final class VirtualClockWire: ByteWire {
    var kind: WireKind = .stream
    var description: String { "virtual" }
    var now: Duration = .seconds(50)
    var lineRate: Int? { 11520 }
    var sent: [[UInt8]] = []
    var arrivals: [(at: Duration, bytes: [UInt8])] = []
    var closed = false

    func send(_ bytes: [UInt8]) async throws(WireError) { sent.append(bytes) }

    func receive(until deadline: Duration) async throws(WireError) -> [UInt8]? {
        guard let next = arrivals.first, next.at <= deadline else {
            now = max(now, deadline)
            return nil
        }
        arrivals.removeFirst()
        now = max(now, next.at)
        return next.bytes
    }

    func sleep(until deadline: Duration) async { now = max(now, deadline) }
    func close() async { closed = true }
}

/// The records of a pcap file, read back as a reader would: the file header checked, each
/// record's time, direction byte and bytes.
struct CapturedRecord: Equatable {
    var seconds: UInt32
    var microseconds: UInt32
    var direction: UInt8
    var bytes: [UInt8]
}

func readCapture(_ path: String) throws -> (header: [UInt8], records: [CapturedRecord]) {
    let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
    let bytes = [UInt8](data)
    func word(_ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
    XCTAssertGreaterThanOrEqual(bytes.count, 24)
    var records: [CapturedRecord] = []
    var offset = 24
    while offset < bytes.count {
        let captured = Int(word(offset + 8))
        XCTAssertEqual(word(offset + 8), word(offset + 12), "captured and original lengths")
        XCTAssertGreaterThanOrEqual(captured, 1, "every record has its direction byte")
        let body = Array(bytes[(offset + 16)..<(offset + 16 + captured)])
        records.append(CapturedRecord(seconds: word(offset), microseconds: word(offset + 4), direction: body[0],
                                      bytes: Array(body.dropFirst())))
        offset += 16 + captured
    }
    XCTAssertEqual(offset, bytes.count, "no trailing bytes")
    return (Array(bytes.prefix(24)), records)
}

final class WireCaptureTests: XCTestCase {
    /// libpcap's savefile header: magic A1B2C3D4 (microseconds), version 2.4, zone 0, sigfigs 0,
    /// snaplen 262144, LINKTYPE_USER0 (147); little-endian.
    static let goldenHeader: [UInt8] = [
        0xD4, 0xC3, 0xB2, 0xA1, 0x02, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x04, 0x00, 0x93, 0x00, 0x00, 0x00,
    ]

    func testTheFileHeaderIsLibpcaps() {
        XCTAssertEqual(WireCaptureFormat.fileHeader, Self.goldenHeader)
    }

    func testARecordIsTimeLengthsDirectionAndBytes() {
        let time = Duration.seconds(1_700_000_000) + .microseconds(250)
        XCTAssertEqual(WireCaptureFormat.records(of: [0x0A, 0x00], direction: .sent, at: time), [
            0x00, 0xF1, 0x53, 0x65,  // seconds 1700000000
            0xFA, 0x00, 0x00, 0x00,  // microseconds 250
            0x03, 0x00, 0x00, 0x00,  // captured length: direction byte + 2
            0x03, 0x00, 0x00, 0x00,  // original length
            0x01,                    // sent by this host
            0x0A, 0x00,
        ])
        XCTAssertEqual(WireCaptureFormat.records(of: [], direction: .received, at: .seconds(1)),
                       [1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0x00], "an empty datagram is still a record")
    }

    func testACaptureRecordsEveryChunkWithItsTimeAndDirection() async throws {
        let path = try temporaryDirectory(self).appendingPathComponent("wire.pcap").path
        let wire = VirtualClockWire()
        wire.arrivals = [(at: .seconds(50) + .milliseconds(1500), bytes: [0x06, 0x09, 0x0A]),
                         (at: .seconds(53), bytes: [0x00])]
        let capture = try WireCapture(wire: wire, path: path, startedAt: .seconds(1_700_000_000))
        XCTAssertEqual(capture.kind, .stream)
        XCTAssertEqual(capture.lineRate, 11520)
        XCTAssertEqual(capture.description, "virtual, captured to \(path)")

        try await capture.send([0x06, 0x09, 0x41, 0x0A])
        let first = try await capture.receive(until: .seconds(60))
        await capture.sleep(until: .seconds(52) + .microseconds(7))
        try await capture.send([0x0D])
        let second = try await capture.receive(until: .seconds(60))
        let none = try await capture.receive(until: .seconds(61))
        XCTAssertEqual(first, [0x06, 0x09, 0x0A])
        XCTAssertEqual(second, [0x00])
        XCTAssertNil(none)
        XCTAssertEqual(wire.sent, [[0x06, 0x09, 0x41, 0x0A], [0x0D]], "passed through")
        XCTAssertEqual(capture.recordCount, 4)
        await capture.close()
        XCTAssertTrue(wire.closed)

        let (header, records) = try readCapture(path)
        XCTAssertEqual(header, Self.goldenHeader)
        XCTAssertEqual(records, [
            CapturedRecord(seconds: 1_700_000_000, microseconds: 0, direction: 0x01, bytes: [0x06, 0x09, 0x41, 0x0A]),
            CapturedRecord(seconds: 1_700_000_001, microseconds: 500_000, direction: 0x00, bytes: [0x06, 0x09, 0x0A]),
            CapturedRecord(seconds: 1_700_000_002, microseconds: 7, direction: 0x01, bytes: [0x0D]),
            CapturedRecord(seconds: 1_700_000_003, microseconds: 0, direction: 0x00, bytes: [0x00]),
        ])
    }

    func testAChunkLongerThanARecordTakesSeveral() async throws {
        let path = try temporaryDirectory(self).appendingPathComponent("long.pcap").path
        let wire = VirtualClockWire()
        let capture = try WireCapture(wire: wire, path: path, startedAt: .seconds(10))
        let chunk = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        try await capture.send(chunk)
        XCTAssertEqual(capture.recordCount, 2)
        await capture.close()
        let records = try readCapture(path).records
        XCTAssertEqual(records.map(\.bytes.count), [262_143, 37857])
        XCTAssertEqual(records.flatMap(\.bytes), chunk)
        XCTAssertEqual(Set(records.map(\.direction)), [0x01])
    }

    func testACaptureOfARealSerialLine() async throws {
        let path = try temporaryDirectory(self).appendingPathComponent("serial.pcap").path
        let device = try PseudoTerminal()
        let client = try SerialPortWire(path: device.clientPath)
        let before = Date().timeIntervalSince1970
        let capture = try WireCapture(wire: client, path: path)
        try await capture.send(lineDisciplineBytes)
        _ = try await receiveBytes(lineDisciplineBytes.count, from: device)
        try await device.send([0x04, 0x14, 0x0A])
        let answer = try await receiveBytes(3, from: capture)
        XCTAssertEqual(answer, [0x04, 0x14, 0x0A])
        await capture.close()
        await device.close()
        let records = try readCapture(path).records
        XCTAssertEqual(records.first, CapturedRecord(seconds: records[0].seconds, microseconds: records[0].microseconds,
                                                     direction: 0x01, bytes: lineDisciplineBytes))
        XCTAssertEqual(records.dropFirst().flatMap(\.bytes), [0x04, 0x14, 0x0A])
        XCTAssertEqual(Set(records.dropFirst().map(\.direction)), [0x00])
        let recordedAt = Double(records[0].seconds) + Double(records[0].microseconds) / 1e6
        XCTAssertEqual(recordedAt, before, accuracy: 5, "records carry the wall time")
    }

    func testTsharkListsTheRecords() async throws {
        guard let tshark = ["/usr/bin/tshark", "/usr/local/bin/tshark"].first(where: FileManager.default.isExecutableFile) else {
            print("testTsharkListsTheRecords skipped: tshark is not installed (apt-get install tshark)")
            throw XCTSkip("tshark is not installed (apt-get install tshark)")
        }
        let path = try temporaryDirectory(self).appendingPathComponent("tshark.pcap").path
        let wire = VirtualClockWire()
        wire.arrivals = [(at: .seconds(51), bytes: Array("answer\n".utf8))]
        let capture = try WireCapture(wire: wire, path: path, startedAt: .seconds(1_700_000_000))
        try await capture.send([0x00, 0x0D, 0x0A, 0xFF])
        _ = try await capture.receive(until: .seconds(52))
        await capture.close()

        let listing = try run(tshark, ["-r", path, "-T", "fields", "-e", "frame.number", "-e", "frame.len",
                                       "-e", "frame.time_epoch"])
        XCTAssertEqual(listing.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }, [
            ["1", "5", "1700000000.000000000"],
            ["2", "8", "1700000001.000000000"],
        ], listing)
        // With User 0 mapped to `data` after a 1-byte header: the direction, then the bytes.
        let fields = try run(tshark, ["-r", path, "-o", #"uat:user_dlts:"User 0 (DLT=147)","data","1","","","""#,
                                      "-T", "fields", "-e", "data.data"])
        XCTAssertEqual(fields.split(separator: "\n").map(String.init), ["01,000d0aff", "00,616e737765720a"], fields)
    }

    func testACaptureFileThatCannotBeMadeIsRefused() {
        XCTAssertThrowsError(try WireCapture(wire: VirtualClockWire(), path: "/nonexistent/dir/wire.pcap")) { error in
            let error = error as! WireError
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertEqual(error.wire, "/nonexistent/dir/wire.pcap")
            XCTAssertTrue(error.detail.contains("cannot create the capture file"), error.description)
        }
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(executable) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }
}
