import DFUBytes
import DFUProfile
import XCTest

/// Every step form and the less common keys decode into the model.
final class StepDecodingTests: XCTestCase {
    static let profile = """
        profile: every-step
        defaults: { endian: big, timeout: 2s, retries: 3 }
        framings:
          smp: { header-size: 8, length-offset: 2, length-width: 2, length-counts: payload }
        characteristics:
          control: { service: FE59, uuid: 8EC90001-F315-4F60-9FB8-838830DAEA50, properties: [write, notify] }
          packet:
            service: FE59
            uuid: 8EC90002-F315-4F60-9FB8-838830DAEA50
            properties: [write-without-response]
            segment: 20
            framing: smp
        codes:
          result: { 0x01: success, 0x0B: { name: extended, message: see the extended error } }
          extended: { 0x07: signature-missing }
        notifications:
          prn:
            characteristic: control
            fields:
              - { type: u8, value: 0x60 }
              - { name: offset, type: u32le }
              - { name: crc, type: u32le }
        commands:
          select:
            characteristic: control
            timeout: 1m
            request:
              - { type: u8, value: 0x06 }
              - { name: seq, type: u24, value: 0x010203 }
            response:
              fields:
                - { type: u8, value: 0x60 }
                - { name: seq, type: u24 }
                - { name: result, type: u8 }
                - { name: extended, type: u8 }
                - { name: rest, type: bytes }
              match: ["response.seq == request.seq"]
              status:
                field: result
                success: 0x01
                codes: result
                detail: { when: 0x0B, field: extended, codes: extended }
          reset:
            characteristic: packet
            request: [{ type: u16, value: 0xFFFF }, { type: u32, value: 0 }]   # the 6 header bytes besides the length
        procedure:
          - send: select
            as: sel
            timeout: 250ms
            retries: 0
            expect: sel.result == 1
          - check: sel.rest == slice(image.data, 0, 4) || link.mtu > 23
            message: nope
            verifies: true
          - check: len(image.data) > 0
          - retry:
              attempts: 2
              steps:
                - stream:
                    data: image.data
                    from: sel.seq
                    to: packet
                    write: with-response
                    progress: false
                    receipts:
                      every: 12
                      notification: prn
                      as: receipt
                      expect: ["receipt.crc == crc32(slice(image.data, 0, receipt.offset))"]
                      timeout: 3s
          - chunks: { data: image.data, size: 'align_down(link.mtu - 3, 4)', as: piece, progress: false, steps: [] }
          - set: { total: piece.size }
          - reconnect: { address: next, timeout: 20s }
          - reconnect:
          - wait: 2m
          - if: total > 0
            then: [{ send: reset }]
          - fail: "gave up"
        """

    func testEveryStepForm() throws {
        let profile = try ProfileLoader.load(text: Self.profile, path: "every.yaml")
        XCTAssertEqual(profile.defaults.endianness, .big)
        XCTAssertEqual(profile.defaults.retries, 3)
        XCTAssertEqual(profile.framings["smp"]?.format.endianness, .big)
        XCTAssertEqual(profile.framings["smp"]?.format.headerSize, 8)
        XCTAssertEqual(profile.framings["smp"]?.format.lengthField, .insert)
        XCTAssertNil(profile.framings["smp"]?.format.trailer)
        let packet = try XCTUnwrap(profile.characteristic(named: "packet"))
        XCTAssertEqual(packet.writeType, .withoutResponse)
        XCTAssertEqual(packet.segmentSize, .fixed(20))
        XCTAssertFalse(packet.subscribe)
        XCTAssertEqual(packet.service, BluetoothUUID(uuid16: 0xFE59))
        XCTAssertEqual(profile.codeTables["result"]?.entries[0x0B]?.message, "see the extended error")
        XCTAssertEqual(profile.notifications["prn"]?.fields[1].type, .unsigned(width: 4, endianness: .little))

        let select = try XCTUnwrap(profile.commands["select"])
        XCTAssertEqual(select.timeout, .seconds(60))
        XCTAssertEqual(select.request.fields[1].type, .unsigned(width: 3, endianness: .big))
        XCTAssertEqual(select.response?.match.map { render($0.node) }, ["(response.seq == request.seq)"])
        XCTAssertEqual(select.response?.message.fields.last?.type, .bytes(count: nil))
        let status = try XCTUnwrap(select.response?.status)
        XCTAssertEqual(status.success, [1])
        XCTAssertEqual(status.detail?.when, 0x0B)
        XCTAssertEqual(status.detail?.field, "extended")
        XCTAssertEqual(status.detail?.codes, "extended")
        XCTAssertNil(profile.commands["reset"]?.response)

        let steps = profile.procedure.map(\.kind)
        XCTAssertEqual(steps.count, 11)
        guard case .send(let send) = steps[0] else { return XCTFail("send") }
        XCTAssertEqual(send.alias, "sel")
        XCTAssertEqual(send.timeout, .milliseconds(250))
        XCTAssertEqual(send.retries, 0)
        XCTAssertEqual(send.expect.count, 1)
        guard case .check(_, let message, _, let verifies) = steps[1],
              case .check(_, let defaultMessage, _, let verifiesByDefault) = steps[2] else {
            return XCTFail("check")
        }
        XCTAssertEqual(message, "nope")
        XCTAssertTrue(verifies)
        XCTAssertFalse(verifiesByDefault)
        XCTAssertEqual(defaultMessage, "check failed: len(image.data) > 0")
        guard case .retry(2, let inner) = steps[3], case .stream(let stream) = inner.first?.kind else {
            return XCTFail("retry/stream")
        }
        XCTAssertEqual(stream.to, "packet")
        XCTAssertEqual(stream.writeType, .withResponse)
        XCTAssertFalse(stream.reportsProgress)
        XCTAssertEqual(stream.receipts?.alias, "receipt")
        XCTAssertEqual(stream.receipts?.timeout, .seconds(3))
        XCTAssertEqual(stream.receipts?.every.node, .integer(12))
        guard case .chunks(let loop) = steps[4] else { return XCTFail("chunks") }
        XCTAssertEqual(loop.alias, "piece")
        XCTAssertNil(loop.from)
        XCTAssertTrue(loop.steps.isEmpty)
        guard case .reconnect(let next) = steps[6], case .reconnect(let same) = steps[7] else {
            return XCTFail("reconnect")
        }
        XCTAssertEqual(next.address, .next)
        XCTAssertEqual(next.timeout, .seconds(20))
        XCTAssertEqual(same.address, .same)
        XCTAssertNil(same.timeout)
        guard case .wait(let wait) = steps[8] else { return XCTFail("wait") }
        XCTAssertEqual(wait, .seconds(120))
        guard case .conditional(_, let then, let otherwise) = steps[9] else { return XCTFail("if") }
        XCTAssertEqual(then.count, 1)
        XCTAssertTrue(otherwise.isEmpty)
        guard steps.count == 11, case .fail(let failure) = steps[10] else { return XCTFail("fail") }
        XCTAssertEqual(failure, "gave up")
    }

    /// YAML splits flow lists at commas: the error says to quote the expression.
    func testUnquotedCommaInFlowListGetsAHint() {
        let quoted = "[\"receipt.crc == crc32(slice(image.data, 0, receipt.offset))\"]"
        let text = Self.profile.replacingOccurrences(of: quoted, with: quoted.replacingOccurrences(of: "\"", with: ""))
        let errors = loadErrors(text, path: "every.yaml")
        XCTAssertTrue(errors.first?.contains("quote the expression") == true, errors.joined(separator: "\n"))
    }

    func testVerifiesTakesABooleanAtItsPlace() {
        let text = Self.profile.replacingOccurrences(of: "verifies: true", with: "verifies: 1")
        let errors = loadErrors(text, path: "every.yaml")
        XCTAssertEqual(errors.count, 1, errors.joined(separator: "\n"))
        XCTAssertTrue(errors.first?.contains("every.yaml:54:15") == true && errors.first?.contains("'verifies'") == true,
                      errors.joined(separator: "\n"))
    }

    func testMatchMayOnlyUseRequestAndResponseInsideResponses() {
        let text = Self.profile.replacingOccurrences(of: "expect: sel.result == 1", with: "expect: response.seq == 1")
        let errors = loadErrors(text, path: "every.yaml")
        let place = position(of: "response.seq == 1", in: text)
        XCTAssertEqual(errors, ["every.yaml:\(place.line):\(place.column): error: unknown name 'response' in "
                                + "expression (it is not image, link, a command, an 'as' alias or a 'set' variable)"])
    }
}
