import XCTest
import DFUBytes
@testable import DFUHCI

final class H4StreamDecoderTests: XCTestCase {
    func testPacketsSplitAtEveryByteBoundary() {
        let stream = bytes("04 0e 04 01 03 0c 00 02 40 20 07 00 03 00 04 00 02 f7 00")
        var decoder = H4StreamDecoder()
        var packets: [HCIPacket] = []
        for byte in stream { packets += decoder.append([byte]) }
        XCTAssertEqual(packets, [HCIPacket(type: .event, body: bytes("0e 04 01 03 0c 00")),
                                 HCIPacket(type: .acl, body: bytes("40 20 07 00 03 00 04 00 02 f7 00"))])
        XCTAssertEqual(decoder.pendingByteCount, 0)
        XCTAssertEqual(decoder.discardedByteCount, 0)
    }

    func testGarbageIsSkippedAndDecodingResynchronises() {
        var decoder = H4StreamDecoder()
        // Noise, an event, zeros, a byte that looks like an event but has code 0, an ACL packet.
        let packets = decoder.append(bytes("ff 07 00 04 05 04 00 40 00 13 00 00 04 00 02 40 20 01 00 aa"))
        XCTAssertEqual(packets, [HCIPacket(type: .event, body: bytes("05 04 00 40 00 13")),
                                 HCIPacket(type: .acl, body: bytes("40 20 01 00 aa"))])
        XCTAssertEqual(decoder.discardedByteCount, 7)
    }

    func testImplausibleACLLengthIsGarbage() {
        var decoder = H4StreamDecoder(maximumACLLength: 512)
        let packets = decoder.append(bytes("02 40 00 ff ff 04 0e 04 01 03 0c 00"))
        XCTAssertEqual(packets, [HCIPacket(type: .event, body: bytes("0e 04 01 03 0c 00"))])
        XCTAssertEqual(decoder.discardedByteCount, 5)
    }
}

final class ACLTests: XCTestCase {
    func testACLHeaderGoldenBytesFromBumble() throws {
        let golden = bytes("02 40 20 07 00 03 00 04 00 02 f7 00")
        let packet = try ACLPacket(packet: HCIPacket(h4Bytes: golden))
        XCTAssertEqual(packet, ACLPacket(handle: 0x40, boundary: .firstFlushable, data: bytes("03 00 04 00 02 f7 00")))
        XCTAssertEqual(packet.packet.h4Bytes, golden)
        XCTAssertEqual(try L2CAPBasicFrame(bytes: packet.data), L2CAPBasicFrame(channel: .att, payload: bytes("02 f7 00")))
        XCTAssertThrowsError(try ACLPacket(packet: HCIPacket(type: .acl, body: bytes("40 20 09 00 03"))))
    }

    func testFragmentationToTheControllerBufferLength() {
        let frame = L2CAPBasicFrame(channel: .att, payload: Array(repeating: 0xAB, count: 60)).bytes
        let fragments = ACLFragmenter.fragments(of: frame, handle: 0x41, maximumLength: 27)
        XCTAssertEqual(fragments.map(\.data.count), [27, 27, 10])
        XCTAssertEqual(fragments.map(\.boundary), [.firstNonFlushable, .continuation, .continuation])
        XCTAssertEqual(fragments.flatMap(\.data), frame)
        XCTAssertEqual(fragments[1].packet.body.prefix(2), [0x41, 0x10])
    }

    func testReassemblyOfContinuationFragments() {
        var reassembler = ACLReassembler()
        let frame = L2CAPBasicFrame(channel: .att, payload: Array(0..<40)).bytes
        // Even a first fragment shorter than the L2CAP header.
        XCTAssertEqual(reassembler.append(ACLPacket(handle: 1, boundary: .firstFlushable, data: Array(frame[0..<3]))), .incomplete)
        XCTAssertEqual(reassembler.append(ACLPacket(handle: 1, boundary: .continuation, data: Array(frame[3..<30]))), .incomplete)
        XCTAssertEqual(reassembler.append(ACLPacket(handle: 1, boundary: .continuation, data: Array(frame[30...]))), .frame(frame))
        XCTAssertFalse(reassembler.isInProgress)
    }

    func testOrphanAndOverlongFragmentsAreDiscarded() {
        var reassembler = ACLReassembler()
        guard case .discarded = reassembler.append(ACLPacket(handle: 1, boundary: .continuation, data: [1, 2])) else {
            return XCTFail("an orphan continuation must be discarded")
        }
        XCTAssertEqual(reassembler.append(ACLPacket(handle: 1, boundary: .firstFlushable, data: bytes("02 00 04 00 aa"))), .incomplete)
        guard case .discarded = reassembler.append(ACLPacket(handle: 1, boundary: .continuation, data: [0xbb, 0xcc])) else {
            return XCTFail("fragments longer than the header announced must be discarded")
        }
        // A new first fragment replaces an unfinished frame.
        XCTAssertEqual(reassembler.append(ACLPacket(handle: 1, boundary: .firstFlushable, data: bytes("02 00 04 00 aa"))), .incomplete)
        guard case .discarded = reassembler.append(ACLPacket(handle: 1, boundary: .firstFlushable, data: bytes("01 00 04 00"))) else {
            return XCTFail("the replaced frame is reported")
        }
    }

    func testFlowControlCredits() {
        var flow = ACLFlowControl(capacity: 2)
        XCTAssertTrue(flow.consume(on: 1))
        XCTAssertTrue(flow.consume(on: 2))
        XCTAssertFalse(flow.consume(on: 1))
        XCTAssertEqual(flow.complete(5, on: 1), 1, "a confused controller cannot create credits")
        XCTAssertEqual(flow.available, 1)
        XCTAssertEqual(flow.connectionClosed(2), 1)
        XCTAssertEqual(flow.available, 2)
    }
}

final class L2CAPTests: XCTestCase {
    func testSignalingCommands() throws {
        // Connection Parameter Update Request, identifier 1: 6-12 x 1.25 ms, latency 0, 5 s.
        let request = try LESignalingPacket(bytes: bytes("12 01 08 00 06 00 0c 00 00 00 f4 01"))
        XCTAssertEqual(request.code, .connectionParameterUpdateRequest)
        let parameters = try ConnectionParameterUpdateRequest(data: request.data).parameters
        XCTAssertEqual(parameters, HCIConnectionParameters(intervalMin: 6, intervalMax: 12, latency: 0, supervisionTimeout: 500))
        XCTAssertTrue(parameters.isValid)
        XCTAssertFalse(HCIConnectionParameters(intervalMin: 12, intervalMax: 6, latency: 0, supervisionTimeout: 500).isValid)
        XCTAssertFalse(HCIConnectionParameters(intervalMin: 6, intervalMax: 3200, latency: 0, supervisionTimeout: 10).isValid)
        XCTAssertEqual(LESignalingPacket(code: .connectionParameterUpdateResponse, identifier: 1,
                                         data: ConnectionParameterUpdateResponse(result: ConnectionParameterUpdateResponse.accepted).data).bytes,
                       bytes("13 01 02 00 00 00"))
        XCTAssertEqual(LESignalingPacket(code: .commandReject, identifier: 7,
                                         data: CommandReject(reason: CommandReject.commandNotUnderstood).data).bytes,
                       bytes("01 07 02 00 00 00"))
        XCTAssertThrowsError(try LESignalingPacket(bytes: bytes("12 01 08 00 06")))
        XCTAssertThrowsError(try L2CAPBasicFrame(bytes: bytes("05 00 04 00 01")))
    }
}
