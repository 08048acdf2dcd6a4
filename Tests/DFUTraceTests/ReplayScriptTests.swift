import DFUBytes
import DFUCapture
import DFUGATT
import DFUProfile
@testable import DFUTrace
import XCTest

/// The replayed device as a pure script: what DFUKit writes is held against what the captured
/// client wrote, message by message, and the captured answers follow. Sessions are built by
/// hand from the vendor protocol's and SMP's bytes, so each case says exactly what differs.
final class ReplayScriptTests: XCTestCase {
    static let vendorService = BluetoothUUID(string: "D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F")!
    static let vendorControl = BluetoothUUID(string: "D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F")!
    static let control: UInt16 = 0x0010

    /// A vendor-ctrlpt session: subscribe, `start` (size 1024) and its answer, then the device
    /// drops the link.
    static func vendorSession(size: UInt32 = 1024, ending: CapturedEnding? = CapturedEnding(time: .seconds(2), byDevice: true, reason: 0x13)) -> CapturedSession {
        let service = GATTService(uuid: vendorService, characteristics: [
            GATTCharacteristic(service: vendorService, uuid: vendorControl, valueHandle: control, properties: [.write, .notify]),
        ])
        var start: [UInt8] = [0x01]
        start += withUnsafeBytes(of: size.littleEndian, Array.init)
        start += [0x11, 0x22, 0x33, 0x44] + [UInt8](repeating: 0xAB, count: 32)
        let framedStart = [UInt8(start.count), 0x00] + start
        let operations: [CapturedOperation] = [
            CapturedOperation(time: .milliseconds(10), kind: .subscribe(descriptorHandle: control + 1, valueHandle: control,
                                                                        configuration: 1)),
            CapturedOperation(time: .milliseconds(20), kind: .write(handle: control, value: framedStart, withResponse: true)),
            CapturedOperation(time: .milliseconds(21), kind: .writeAcknowledged),
            CapturedOperation(time: .milliseconds(300), kind: .notification(handle: control, value: [0x04, 0x00, 0x81, 0x00, 0x00, 0x10],
                                                                            indication: false)),
        ]
        return CapturedSession(source: "hand-built", format: .recording(version: 1), connections: [
            CapturedConnection(peer: DeviceAddress(string: "C0:FF:EE:00:00:01"), mtu: 247, services: [service],
                               operations: operations, ending: ending),
        ])
    }

    static func framedStart(size: UInt32) -> [UInt8] {
        var start: [UInt8] = [0x01]
        start += withUnsafeBytes(of: size.littleEndian, Array.init)
        start += [0x11, 0x22, 0x33, 0x44] + [UInt8](repeating: 0xAB, count: 32)
        return [UInt8(start.count), 0x00] + start
    }

    func testTheSameMessageGetsTheCapturedAnswerAtItsCapturedDelay() throws {
        var script = ReplayScript(session: Self.vendorSession(), profile: try TraceTestSupport.profile("vendor-ctrlpt"),
                                  strictness: .strict)
        guard case .success = script.connect() else { return XCTFail("the capture's first connection opens") }
        guard case .success = script.subscribe(Self.control, enabled: true) else { return XCTFail("subscribing was captured") }
        guard case let .success(answer) = script.write(Self.framedStart(size: 1024), to: Self.control, withResponse: true) else {
            return XCTFail("the same start is what the client sent")
        }
        XCTAssertEqual(answer.notifications.map(\.value.value), [[0x04, 0x00, 0x81, 0x00, 0x00, 0x10]])
        XCTAssertEqual(answer.notifications.first?.after, .milliseconds(280))
        XCTAssertEqual(answer.disconnectAfter, .milliseconds(1980), "the device ended the connection after the last step")
        XCTAssertNil(script.unfinished())
    }

    func testADifferentFieldIsNamedWithBothValues() throws {
        var script = ReplayScript(session: Self.vendorSession(), profile: try TraceTestSupport.profile("vendor-ctrlpt"),
                                  strictness: .strict)
        _ = script.connect()
        guard case let .failure(divergence) = script.write(Self.framedStart(size: 2048), to: Self.control, withResponse: true) else {
            return XCTFail("a start announcing another size is not what the client sent")
        }
        XCTAssertEqual(divergence.connection, 1)
        XCTAssertEqual(divergence.step, 2, "step 1 is the subscription, taken in any order")
        XCTAssertEqual(divergence.fields.first?.message, "start")
        XCTAssertEqual(divergence.fields.first?.field, "field 'size'")
        XCTAssertEqual(divergence.fields.first?.captured, "1024 (0x400)")
        XCTAssertEqual(divergence.fields.first?.now, "2048 (0x800)")
        XCTAssertEqual(divergence.fields.first?.variance, .imageDerived)
        XCTAssertTrue(divergence.description.contains("message 'start' field 'size': the capture has 1024 (0x400), DFUKit sends 2048 (0x800)"),
                      divergence.description)
        // Every later call fails with the same first difference.
        guard case let .failure(again) = script.read(Self.control) else { return XCTFail("the replay stopped") }
        XCTAssertEqual(again.summary, divergence.summary)
    }

    func testAMessageCutIntoOtherWritesDivergesWhenStrictOnly() throws {
        let profile = try TraceTestSupport.profile("vendor-ctrlpt")
        let start = Self.framedStart(size: 1024)
        var strict = ReplayScript(session: Self.vendorSession(), profile: profile, strictness: .strict)
        _ = strict.connect()
        guard case let .success(first) = strict.write(Array(start.prefix(20)), to: Self.control, withResponse: true) else {
            return XCTFail("half a message is taken while it is incomplete")
        }
        XCTAssertTrue(first.notifications.isEmpty)
        guard case let .failure(divergence) = strict.write(Array(start.dropFirst(20)), to: Self.control, withResponse: true) else {
            return XCTFail("strict: the same bytes in the same writes")
        }
        XCTAssertTrue(divergence.summary.contains("went in 2 write(s) of 20, 23 bytes; the capture's client wrote it in 1 of 43"),
                      divergence.summary)

        var tolerant = ReplayScript(session: Self.vendorSession(), profile: profile, strictness: .tolerant)
        _ = tolerant.connect()
        _ = tolerant.write(Array(start.prefix(20)), to: Self.control, withResponse: true)
        guard case let .success(answer) = tolerant.write(Array(start.dropFirst(20)), to: Self.control, withResponse: true) else {
            return XCTFail("tolerant: segmentation may differ")
        }
        XCTAssertEqual(answer.notifications.count, 1)
    }

    func testImageDerivedFieldsAreFreeOnlyForAnotherImage() throws {
        let profile = try TraceTestSupport.profile("vendor-ctrlpt")
        var another = ReplayScript(session: Self.vendorSession(), profile: profile, strictness: .tolerant)
        another.sameImage = false
        _ = another.connect()
        guard case .success = another.write(Self.framedStart(size: 2048), to: Self.control, withResponse: true) else {
            return XCTFail("another image: its size may differ")
        }
        XCTAssertEqual(another.tolerated.map(\.field), ["field 'size'"])

        var same = ReplayScript(session: Self.vendorSession(), profile: profile, strictness: .tolerant)
        _ = same.connect()
        guard case .failure = same.write(Self.framedStart(size: 2048), to: Self.control, withResponse: true) else {
            return XCTFail("the same image: a size made from it must match")
        }
    }

    func testAConstantThatDiffersFailsEvenWhenTolerant() throws {
        // A profile whose `start` opcode is wrong (0x09 for 0x01): the one wrong field is named.
        let text = try String(contentsOfFile: ProfileLibrary.sourceTreeProfilesDirectory + "/vendor-ctrlpt.yaml", encoding: .utf8)
            .replacingOccurrences(of: "      - { type: u8, value: 0x01 }\n      - { name: size",
                                  with: "      - { type: u8, value: 0x09 }\n      - { name: size")
        let wrong = try ProfileLoader.load(text: text, path: "wrong-vendor.yaml")
        var script = ReplayScript(session: Self.vendorSession(), profile: wrong, strictness: .tolerant)
        script.sameImage = false
        _ = script.connect()
        var start = Self.framedStart(size: 1024)
        start[2] = 0x09
        guard case let .failure(divergence) = script.write(start, to: Self.control, withResponse: true) else {
            return XCTFail("an opcode is a constant")
        }
        XCTAssertEqual(divergence.fields.map(\.field), ["field 1"])
        XCTAssertEqual(divergence.fields.first?.message, "start")
        XCTAssertEqual(divergence.fields.first?.captured, "1")
        XCTAssertEqual(divergence.fields.first?.now, "9")
        XCTAssertEqual(divergence.fields.first?.variance, .fixed)
    }

    func testWritingAfterTheCapturedClientStoppedNamesTheEnd() throws {
        var script = ReplayScript(session: Self.vendorSession(ending: nil), profile: try TraceTestSupport.profile("vendor-ctrlpt"),
                                  strictness: .strict)
        _ = script.connect()
        _ = script.write(Self.framedStart(size: 1024), to: Self.control, withResponse: true)
        guard case let .failure(divergence) = script.write([0x01, 0x00, 0x03], to: Self.control, withResponse: true) else {
            return XCTFail("the capture's client sent nothing more")
        }
        XCTAssertTrue(divergence.summary.contains("DFUKit wrote 'verify' to 'control' (03), but the capture's client sent nothing more"),
                      divergence.summary)
    }

    func testAnotherConnectionThanTheCaptureHeldIsRefused() throws {
        var script = ReplayScript(session: Self.vendorSession(), profile: nil, strictness: .strict)
        _ = script.connect()
        script.deviceDisconnected()
        guard case let .failure(divergence) = script.connect() else { return XCTFail("one connection was captured") }
        XCTAssertTrue(divergence.summary.contains("the capture holds 1 connection(s)"), divergence.summary)
    }

    /// SMP: another client numbers its requests its own way; the answer then carries DFUKit's
    /// number, or DFUKit's `match` (response.seq == request.seq) would never take it.
    func testASequenceNumberIsLetThroughAndTheAnswerCarriesDFUKits() throws {
        let profile = try TraceTestSupport.profile("mcumgr-smp")
        guard let smp = profile.characteristics.first else { return XCTFail("mcumgr-smp has its SMP characteristic") }
        let service = GATTService(uuid: smp.service, characteristics: [
            GATTCharacteristic(service: smp.service, uuid: smp.uuid, valueHandle: 0x0020, properties: [.writeWithoutResponse, .notify]),
        ])
        // image state read (group 1, id 0), seq 0x42 from the phone; the answer echoes 0x42.
        let body = CBOR.encode(.map([]))
        let captured: [UInt8] = [0x08, 0x00, 0x00, UInt8(body.count), 0x00, 0x01, 0x42, 0x00] + body
        let answerBody = CBOR.encode(.map([CBORMapEntry(.text("images"), .array([]))]))
        let answer: [UInt8] = [0x09, 0x00, 0x00, UInt8(answerBody.count), 0x00, 0x01, 0x42, 0x00] + answerBody
        let session = CapturedSession(source: "hand-built", format: .recording(version: 1), connections: [
            CapturedConnection(peer: DeviceAddress(string: "C0:FF:EE:00:00:02"), mtu: 247, services: [service], operations: [
                CapturedOperation(time: .zero, kind: .write(handle: 0x0020, value: captured, withResponse: false)),
                CapturedOperation(time: .milliseconds(30), kind: .notification(handle: 0x0020, value: answer, indication: false)),
            ]),
        ])
        var mine = captured
        mine[6] = 0x00
        var strict = ReplayScript(session: session, profile: profile, strictness: .strict)
        _ = strict.connect()
        guard case let .failure(divergence) = strict.write(mine, to: 0x0020, withResponse: false) else {
            return XCTFail("strict: the same bytes")
        }
        XCTAssertEqual(divergence.fields.first?.field, "field 'seq'")
        XCTAssertEqual(divergence.fields.first?.variance, .sequence)

        var tolerant = ReplayScript(session: session, profile: profile, strictness: .tolerant)
        _ = tolerant.connect()
        guard case let .success(reply) = tolerant.write(mine, to: 0x0020, withResponse: false) else {
            return XCTFail("tolerant: a sequence number varies")
        }
        XCTAssertEqual(reply.notifications.first?.value.value[6], 0x00, "the captured answer now carries DFUKit's number")
        XCTAssertEqual(tolerant.tolerated.map(\.variance), [.sequence])
    }
}
