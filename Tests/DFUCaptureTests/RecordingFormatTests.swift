import DFUBytes
import DFUCapture
import DFUGATT
import Foundation
import XCTest

/// The recording format written and read back: golden lines, blobs stored once, the version
/// rule, a file cut by a crash.
final class RecordingFormatTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    private let image: [UInt8] = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7 ^ ($0 >> 8)) }

    private func temporaryPath(_ name: String = "session.dfurec") -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfukit-recording-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory.appendingPathComponent(name).path
    }

    private func header() -> RecordingHeader {
        RecordingHeader(dfukitVersion: "0.1.0", startedAt: "2026-12-02T16:40:00.123Z", profile: "vendor-ctrlpt",
                        device: "sim:vendor-ctrlpt", transport: "sim:vendor-ctrlpt", medium: .ble,
                        images: [.init(name: "application", size: image.count, sha256: SHA256.digest(image).hexString)])
    }

    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func testTheHeaderAndEventLinesAreWrittenAsDocumented() throws {
        let path = temporaryPath()
        let writer = try RecordingWriter(path: path, header: header())
        writer.append(RecordingEvent(time: .milliseconds(100), kind: .connecting(address)))
        writer.append(RecordingEvent(time: .microseconds(200_001), kind: .connected(address, mtu: 247, medium: .ble)))
        writer.append(RecordingEvent(time: .seconds(1), kind: .write(handle: 3, characteristic: "control", withResponse: true,
                                                                   value: [0x01, 0x00, 0x06])))
        writer.append(RecordingEvent(time: .seconds(1), kind: .subscribe(handle: 3, characteristic: nil, updates: .indications)))
        writer.append(RecordingEvent(time: .seconds(2), kind: .note("phase \"transfer\": entered")))
        writer.append(RecordingEvent(time: .seconds(3), kind: .disconnected(byDevice: true, reason: "rebooted")))
        writer.close()
        let sha = SHA256.digest(image).hexString
        XCTAssertEqual(try lines(path), [
            #"{"format":"dfukit-recording","version":1,"dfukit":"0.1.0","started_at":"2026-12-02T16:40:00.123Z","#
                + #""profile":"vendor-ctrlpt","device":"sim:vendor-ctrlpt","transport":"sim:vendor-ctrlpt","medium":"ble","#
                + #""images":[{"name":"application","size":4096,"sha256":"\#(sha)"}]}"#,
            #"{"t":0.100000,"event":"connecting","address":"C0:FF:EE:00:00:01"}"#,
            #"{"t":0.200001,"event":"connected","address":"C0:FF:EE:00:00:01","mtu":247,"medium":"ble"}"#,
            #"{"t":1.000000,"event":"write","handle":3,"characteristic":"control","response":true,"value":"010006"}"#,
            #"{"t":1.000000,"event":"subscribe","handle":3,"updates":"indications"}"#,
            #"{"t":2.000000,"event":"note","text":"phase \"transfer\": entered"}"#,
            #"{"t":3.000000,"event":"disconnected","by":"device","reason":"rebooted"}"#,
        ])
    }

    func testAnImageIsStoredOnceAndWrittenValuesPointIntoIt() throws {
        let path = temporaryPath()
        let writer = try RecordingWriter(path: path, header: header(), images: [image, image])
        writer.append(RecordingEvent(time: .zero, kind: .connected(address, mtu: 247, medium: .ble)))
        var values: [[UInt8]] = []
        for offset in stride(from: 0, to: image.count, by: 240) {
            let chunk = Array(image[offset..<min(offset + 240, image.count)])
            values.append([0x02, UInt8(offset & 0xFF)] + chunk + [0xFF])
        }
        values.append(Array(image[100..<120]))  // shorter than a run: as hex
        for value in values {
            writer.append(RecordingEvent(time: .zero, kind: .write(handle: 3, characteristic: nil, withResponse: false, value: value)))
        }
        writer.close()

        let text = try String(contentsOfFile: path, encoding: .utf8)
        let sha = SHA256.digest(image).hexString
        XCTAssertEqual(text.components(separatedBy: #"{"blob":"\#(sha)","size":4096,"base64":"#).count - 1, 1,
                       "one blob line for two identical images")
        XCTAssertFalse(text.contains(image[1000..<1032].hexString), "no run of the image written out as hex")
        let lines = text.split(separator: "\n")
        XCTAssertTrue(lines[3].hasSuffix(#""value":["0200",{"blob":"\#(sha)","offset":0,"length":240},"ff"]}"#), String(lines[3]))

        let recording = try RecordingReader.read(path: path)
        XCTAssertEqual(recording.blobs[sha], image)
        let written = recording.session.connections.first?.operations.compactMap { operation -> [UInt8]? in
            if case let .write(_, value, _) = operation.kind { value } else { nil }
        }
        XCTAssertEqual(written, values, "the exact bytes restored")
    }

    func testEventsBecomeTheOperationsOfAConnection() throws {
        let text = [
            header().jsonForTest,
            #"{"t":0.05,"event":"advertisement","address":"C0:FF:EE:00:00:01","name":"DFU","services":["180D"],"rssi":-40}"#,
            #"{"t":0.1,"event":"connected","address":"C0:FF:EE:00:00:01","mtu":23,"medium":"serial"}"#,
            #"{"t":0.2,"event":"services","services":[{"uuid":"180D","characteristics":[{"uuid":"2A37","handle":12,"properties":["write","indicate"],"name":"control"}]}]}"#,
            #"{"t":0.3,"event":"subscribe","handle":12,"updates":"indications"}"#,
            #"{"t":0.4,"event":"write","handle":12,"response":true,"value":"01"}"#,
            #"{"t":0.5,"event":"write-acknowledged","handle":12}"#,
            #"{"t":0.6,"event":"write","handle":12,"response":true,"value":"02"}"#,
            #"{"t":0.7,"event":"write-failed","handle":12,"att_error":3,"error":"not permitted"}"#,
            #"{"t":0.8,"event":"notification","handle":12,"indication":true,"value":"8100"}"#,
            #"{"t":0.9,"event":"read","handle":12}"#,
            #"{"t":1.0,"event":"read-value","handle":12,"value":"aa"}"#,
            #"{"t":1.5,"event":"disconnected","by":"device","reason":"rebooted"}"#,
        ].joined(separator: "\n") + "\n"
        let recording = try RecordingReader.read(text: text, source: "test.dfurec")
        XCTAssertEqual(recording.session.format, .recording(version: 1))
        let connection = try XCTUnwrap(recording.session.connections.first)
        XCTAssertEqual(connection.peer, address)
        XCTAssertEqual(connection.medium, .serial)
        XCTAssertEqual(connection.mtu, 23)
        XCTAssertEqual(connection.advertisement?.name, "DFU")
        XCTAssertEqual(connection.characteristic(valueHandle: 12)?.properties, [.write, .indicate])
        XCTAssertEqual(connection.operations.map(\.kind), [
            .subscribe(descriptorHandle: 13, valueHandle: 12, configuration: 2),
            .write(handle: 12, value: [0x01], withResponse: true), .writeAcknowledged,
            .write(handle: 12, value: [0x02], withResponse: true), .attError(request: 0x12, handle: 12, code: 3),
            .notification(handle: 12, value: [0x81, 0x00], indication: true),
            .read(handle: 12), .readValue([0xAA]),
        ])
        XCTAssertEqual(connection.operations.first?.time, .milliseconds(300))
        XCTAssertEqual(connection.ending, CapturedEnding(time: .milliseconds(1500), byDevice: true))
        XCTAssertEqual(recording.session.notes, [])
    }

    func testANewerVersionIsRefusedAtItsLineAndColumn() {
        let text = #"{"format":"dfukit-recording","version":2,"started_at":"x"}"# + "\n"
        XCTAssertThrowsError(try RecordingReader.read(text: text, source: "new.dfurec")) { error in
            let description = "\(error)"
            XCTAssertTrue(description.hasPrefix("new.dfurec:1:30: error: this recording is format version 2; this DFUKit "
                                                + "reads versions up to 1"), description)
            XCTAssertTrue(description.contains("update DFUKit"), description)
        }
        XCTAssertThrowsError(try RecordingReader.read(text: #"{"format":"btsnoop","version":1}"#, source: "x")) { error in
            XCTAssertTrue("\(error)".hasPrefix("x:1:2: error: format 'btsnoop' is not 'dfukit-recording'"), "\(error)")
        }
        XCTAssertThrowsError(try RecordingReader.read(text: "hello\n", source: "x")) { error in
            XCTAssertTrue("\(error)".hasPrefix("x:1:1: error: this line is not a JSON object"), "\(error)")
        }
    }

    func testAFileCutMidLineKeepsWhatCameBeforeWithANote() throws {
        let path = temporaryPath()
        let writer = try RecordingWriter(path: path, header: header())
        writer.append(RecordingEvent(time: .zero, kind: .connected(address, mtu: 247, medium: .ble)))
        writer.append(RecordingEvent(time: .seconds(1), kind: .write(handle: 3, characteristic: nil, withResponse: false, value: [1])))
        writer.close()
        let cut = try String(contentsOfFile: path, encoding: .utf8) + #"{"t":2.000000,"event":"wri"#
        let recording = try RecordingReader.read(text: cut, source: path)
        XCTAssertEqual(recording.session.connections.first?.operations.count, 1)
        XCTAssertEqual(recording.session.notes, ["line 4: cut short (the recording stopped mid-line); read up to line 3"])

        let damaged = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: #""value":"01""#,
                                                                                               with: #""value":"zz""#)
        XCTAssertThrowsError(try RecordingReader.read(text: damaged + "\n", source: "d")) { error in
            XCTAssertTrue("\(error)".hasPrefix("d:3:"), "a damaged line in the middle is an error: \(error)")
        }
    }

    func testCaptureReaderReadsARecordingByItsFirstBytes() throws {
        let path = temporaryPath()
        let writer = try RecordingWriter(path: path, header: header())
        writer.append(RecordingEvent(time: .zero, kind: .connected(address, mtu: 185, medium: .udp)))
        writer.append(RecordingEvent(time: .seconds(1), kind: .write(handle: 3, characteristic: nil, withResponse: false, value: [1])))
        writer.close()
        let session = try CaptureReader.read(path: path)
        XCTAssertEqual(session.format, .recording(version: 1))
        XCTAssertEqual(session.connections.first?.medium, .udp)
        XCTAssertEqual(session.connections.first?.operations.map(\.kind), [.write(handle: 3, value: [1], withResponse: false)])

        let newer = Array(#"{"format":"dfukit-recording","version":7}"#.utf8)
        XCTAssertThrowsError(try CaptureReader.read(bytes: newer, source: "n.dfurec")) { error in
            XCTAssertEqual((error as? CaptureError)?.kind, .unsupportedFormat)
            XCTAssertTrue("\(error)".hasPrefix("n.dfurec: line 1, column 30: this recording is format version 7"), "\(error)")
        }
    }

    func testAFileThatCannotBeCreatedNamesThePath() {
        XCTAssertThrowsError(try RecordingWriter(path: "/nonexistent-dir/s.dfurec", header: header())) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent-dir/s.dfurec: error: cannot write the recording: "), "\(error)")
        }
    }
}

extension RecordingHeader {
    /// The header's line, written through a writer (the JSON text itself is internal).
    var jsonForTest: String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("header-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = (try? RecordingWriter(path: path, header: self))?.close()
        return (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").first.map(String.init) ?? ""
    }
}
