import DFUBytes
import DFUEngine
import DFUProfile
@testable import DFUTrace
import XCTest

/// Reading messages by a profile alone, as an observer of the link: requests by their integer
/// constants, responses by the request waiting for them (and its `match`), golden bytes from
/// the vendor protocol and from SMP frames as mcumgr writes them.
final class MessageCatalogTests: XCTestCase {
    func testVendorRequestsAndResponsesAreReadWithTheirFieldsAndStatus() throws {
        let catalog = MessageCatalog(profile: try TraceTestSupport.profile("vendor-ctrlpt"))
        let request = TraceTestSupport.decoded(catalog.readWritten([0x05], to: "control"))
        XCTAssertEqual(request?.name, "status")
        XCTAssertEqual(request?.kind, .request)

        // 85, status 00, offset 0x1000, crc32 0x11223344, sha256 32 x AA
        let answer: [UInt8] = [0x85, 0x00, 0x00, 0x10, 0x00, 0x00, 0x44, 0x33, 0x22, 0x11] + [UInt8](repeating: 0xAA, count: 32)
        let response = TraceTestSupport.decoded(catalog.readNotified(answer, from: "control"))
        XCTAssertEqual(response?.name, "status")
        XCTAssertEqual(response?.kind, .response)
        XCTAssertEqual(response?.status, "ok")
        XCTAssertEqual(response?.fields.map(\.name), ["status", "offset", "crc32", "sha256"])
        XCTAssertEqual(TraceTestSupport.field(response, "offset"), .integer(0x1000))
        XCTAssertEqual(TraceTestSupport.field(response, "crc32"), .integer(0x1122_3344))
        XCTAssertFalse(response?.unsolicited ?? true)
    }

    func testAFailureStatusIsNamedByTheProfilesCodes() throws {
        let catalog = MessageCatalog(profile: try TraceTestSupport.profile("vendor-ctrlpt"))
        _ = catalog.readWritten([0x04], to: "control")
        let response = TraceTestSupport.decoded(catalog.readNotified([0x84, 0x02], from: "control"))
        XCTAssertEqual(response?.name, "activate")
        XCTAssertEqual(response?.status, "failed: bad-state (0x02): the command is not allowed now (sent out of order)")
    }

    func testBytesNoMessageFitsAreExplained() throws {
        let catalog = MessageCatalog(profile: try TraceTestSupport.profile("vendor-ctrlpt"))
        guard case let .unknown(reason) = catalog.readWritten([0x7F, 0x01], to: "control") else {
            return XCTFail("0x7F is no command of the vendor profile")
        }
        XCTAssertTrue(reason.hasPrefix("no command of the profile fits"), reason)
        guard case .unknown = catalog.readNotified([0x99], from: "control") else { return XCTFail("0x99 answers nothing") }
        guard case .raw = MessageCatalog(profile: try TraceTestSupport.profile("nordic-secure-dfu"))
            .readWritten([1, 2, 3], to: "packet") else { return XCTFail("the packet characteristic carries raw data") }
    }

    /// SMP requests differ in their CBOR maps only (image test: hash and confirm false; confirm
    /// by hash: confirm true), and the header's length field is filled in by the framing.
    func testSMPRequestsAreToldApartByTheirCBORMaps() throws {
        let catalog = MessageCatalog(profile: try TraceTestSupport.profile("mcumgr-smp"))
        let hash = [UInt8](repeating: 0x5A, count: 32)
        func frame(sequence: UInt8, _ map: [CBORMapEntry]) -> [UInt8] {
            let body = CBOR.encode(.map(map))
            return [0x0A, 0x00, 0x00, UInt8(body.count), 0x00, 0x01, sequence, 0x00] + body
        }
        let test = frame(sequence: 7, [CBORMapEntry(.text("hash"), .bytes(hash)), CBORMapEntry(.text("confirm"), .boolean(false))])
        let confirm = frame(sequence: 8, [CBORMapEntry(.text("hash"), .bytes(hash)), CBORMapEntry(.text("confirm"), .boolean(true))])
        XCTAssertEqual(TraceTestSupport.decoded(catalog.readWritten(test, to: "smp"))?.name, "image_test")
        let confirmRead = TraceTestSupport.decoded(catalog.readWritten(confirm, to: "smp"))
        XCTAssertEqual(confirmRead?.name, "image_confirm_hash")
        XCTAssertEqual(TraceTestSupport.field(confirmRead, "seq"), .integer(8))
        guard case let .record(body)? = TraceTestSupport.field(confirmRead, "cbor") else { return XCTFail("no body") }
        XCTAssertEqual(body["hash"], .bytes(hash))
    }

    /// Two SMP requests wait; their answers come in the other order and pair by sequence number.
    func testSMPResponsesPairWithTheirRequestBySequenceNumber() throws {
        let catalog = MessageCatalog(profile: try TraceTestSupport.profile("mcumgr-smp"))
        let empty = CBOR.encode(.map([]))
        _ = catalog.readWritten([0x08, 0, 0, 1, 0, 1, 20, 0] + empty, to: "smp")  // image_list, seq 20
        _ = catalog.readWritten([0x0A, 0, 0, 1, 0, 0, 21, 5] + empty, to: "smp")  // reset, seq 21
        let body = CBOR.encode(.map([CBORMapEntry(.text("rc"), .unsigned(0))]))
        let reset = TraceTestSupport.decoded(catalog.readNotified([0x03, 0, 0, UInt8(body.count), 0, 0, 21, 5] + body, from: "smp"))
        XCTAssertEqual(reset?.name, "reset")
        XCTAssertEqual(reset?.status, "ok")
        let list = TraceTestSupport.decoded(catalog.readNotified([0x01, 0, 0, UInt8(body.count), 0, 1, 20, 0] + body, from: "smp"))
        XCTAssertEqual(list?.name, "image_list")
        XCTAssertEqual(list?.unsolicited, false)
        let again = TraceTestSupport.decoded(catalog.readNotified([0x01, 0, 0, UInt8(body.count), 0, 1, 20, 0] + body, from: "smp"))
        XCTAssertEqual(again?.unsolicited, true, "no request waits for a second answer")
    }

    func testAFrameSplitAcrossValuesIsOneMessage() {
        var stream = MessageStream(framing: LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .little,
                                                               maximumPayloadLength: 100))
        guard case let .success(first) = stream.append([0x03, 0x00, 0x81]), first.isEmpty,
              case let .success(second) = stream.append([0x00]),
              case let .success(third) = stream.append([0x10]) else { return XCTFail("reassembly failed") }
        XCTAssertTrue(second.isEmpty)
        XCTAssertEqual(third.map(\.message), [[0x81, 0x00, 0x10]], "the length-only header is stripped")
        XCTAssertEqual(third.first?.values, 3)
        guard case .failure = stream.append([0xFF, 0x00]) else { return XCTFail("a length over 100 breaks the framing") }
    }
}
