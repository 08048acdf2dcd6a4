import DFUBytes
import DFUProfile
import Foundation
import XCTest

/// The real `profiles/vendor-ctrlpt.yaml` loads into the expected structure.
final class VendorProfileTests: XCTestCase {
    func loadVendor() throws -> Profile {
        do {
            return try ProfileLoader.load(path: vendorProfilePath)
        } catch {
            XCTFail("vendor-ctrlpt.yaml failed to load:\n\(error)")
            throw error
        }
    }

    func testHeaderMatchDefaultsAndResume() throws {
        let profile = try loadVendor()
        XCTAssertEqual(profile.name, "vendor-ctrlpt")
        XCTAssertEqual(profile.version, 1)
        XCTAssertEqual(profile.path, vendorProfilePath)
        XCTAssertEqual(profile.summary?.hasPrefix("Vendor control point"), true)
        XCTAssertEqual(profile.match.namePattern, "DFU-*")
        XCTAssertEqual(profile.match.services, [BluetoothUUID(string: "D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F")!])
        XCTAssertEqual(profile.defaults.endianness, .little)
        XCTAssertEqual(profile.defaults.timeout, .seconds(5))
        XCTAssertEqual(profile.defaults.retries, 1)
        XCTAssertEqual(profile.resume.attempts, 5)
        XCTAssertEqual(profile.resume.reconnectTimeout, .seconds(10))
    }

    func testControlCharacteristicAndFraming() throws {
        let profile = try loadVendor()
        XCTAssertEqual(profile.characteristics.count, 1)
        let control = try XCTUnwrap(profile.characteristic(named: "control"))
        XCTAssertEqual(control.uuid.uuidString, "D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F")
        XCTAssertEqual(control.service.uuidString, "D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F")
        XCTAssertEqual(control.requiredProperties, [.write, .notify])
        XCTAssertEqual(control.writeType, .withResponse)
        XCTAssertEqual(control.segmentSize, .mtu)
        XCTAssertTrue(control.subscribe)
        XCTAssertEqual(control.framing, "ctrl-frame")
        let text = try String(contentsOfFile: vendorProfilePath, encoding: .utf8)
        let written = position(of: "  control:", in: text)
        XCTAssertEqual(control.location.line, written.line)
        XCTAssertEqual(control.location.column, written.column + 2)

        let framing = try XCTUnwrap(profile.framings["ctrl-frame"])
        XCTAssertEqual(framing.format, LengthHeaderFormat(headerSize: 2, lengthOffset: 0, lengthWidth: 2,
                                                          endianness: .little, lengthCounts: .payload,
                                                          maximumPayloadLength: 8192))
    }

    func testCodesAndCommands() throws {
        let profile = try loadVendor()
        let codes = try XCTUnwrap(profile.codeTables["vendor-status"])
        XCTAssertEqual(codes.entries.count, 10)
        XCTAssertEqual(codes.entries[0x05]?.name, "crc-mismatch")
        XCTAssertEqual(codes.entries[0x00]?.message, nil)

        XCTAssertEqual(Set(profile.commands.keys), ["status", "start", "data", "verify", "activate", "info"])
        XCTAssertTrue(profile.notifications.isEmpty)

        let start = try XCTUnwrap(profile.commands["start"])
        XCTAssertEqual(start.timeout, .seconds(10))
        XCTAssertEqual(start.request.characteristic, "control")
        XCTAssertEqual(start.request.fields.map(\.name), [nil, "size", "crc32", "sha256"])
        XCTAssertEqual(start.request.fields.map(\.type), [
            .unsigned(width: 1, endianness: .little), .unsigned(width: 4, endianness: .little),
            .unsigned(width: 4, endianness: .little), .bytes(count: 32),
        ])
        XCTAssertEqual(start.request.fields[0].value?.node, .integer(0x01))
        XCTAssertEqual(start.request.fields[1].value?.node, .path(["image", "size"]))

        let response = try XCTUnwrap(start.response)
        XCTAssertEqual(response.message.characteristic, "control")
        XCTAssertEqual(response.message.fields.map(\.name), [nil, "status", "max_chunk"])
        XCTAssertEqual(response.message.fields[0].value?.node, .integer(0x81))
        XCTAssertNil(response.message.fields[2].value)
        let status = try XCTUnwrap(response.status)
        XCTAssertEqual(status.field, "status")
        XCTAssertEqual(status.success, [0])
        XCTAssertEqual(status.codes, "vendor-status")
        XCTAssertNil(status.detail)

        let data = try XCTUnwrap(profile.commands["data"])
        XCTAssertNil(data.timeout)
        XCTAssertEqual(data.request.fields.last?.type, .bytes(count: nil))
        XCTAssertEqual(data.request.fields.last?.value?.node, .path(["chunk", "data"]))
    }

    func testProcedureShape() throws {
        let profile = try loadVendor()
        let text = try String(contentsOfFile: vendorProfilePath, encoding: .utf8)
        XCTAssertEqual(profile.procedure.count, 4)

        // 1. retry 3 x { send info; send status }: what the device runs and holds
        guard case .retry(let attempts, let probe) = profile.procedure[0].kind,
              case .send(let info) = probe.first?.kind, case .send(let status) = probe.last?.kind else {
            return XCTFail("step 1 is not retry { send info; send status }")
        }
        XCTAssertEqual(attempts, 3)
        XCTAssertEqual(info.command, "info")
        XCTAssertEqual(status.command, "status")
        XCTAssertEqual(profile.procedure[0].location.line, position(of: "  - retry:", in: text).line)

        // 2. phase transfer: skipped when the device runs or holds the whole image; else
        //    resume or start, then chunks of image.data from `from` { retry 3 x { send data } }
        guard case .phase(let transfer) = profile.procedure[1].kind else { return XCTFail("step 2 is not a phase") }
        XCTAssertEqual(transfer.name, "transfer")
        XCTAssertEqual(transfer.achieves, .received)
        XCTAssertEqual(render(try XCTUnwrap(transfer.done).node),
                       "((info.sha256 == image.sha256) || (((status.sha256 == image.sha256) && (status.offset == image.size)) "
                       + "&& (status.crc32 == image.crc32)))")
        guard case .retry(3, let decide) = transfer.steps[0].kind,
              case .conditional(let condition, let then, let otherwise) = decide.first?.kind else {
            return XCTFail("the transfer does not start with retry { if }")
        }
        XCTAssertEqual(render(condition.node),
                       "(((status.sha256 == image.sha256) && (status.offset <= image.size)) && "
                       + "(status.crc32 == crc32(slice(image.data, 0, status.offset))))")
        let conditionStart = position(of: "status.sha256 == image.sha256 && status.offset <=", in: text)
        XCTAssertEqual(condition.location.line, conditionStart.line)
        XCTAssertEqual(condition.location.column, conditionStart.column)
        guard case .set(let resumed) = then.first?.kind else { return XCTFail("then is not set") }
        XCTAssertEqual(resumed.map(\.name), ["from", "max_chunk"])
        XCTAssertEqual(resumed[1].value.node, .integer(4096))
        guard case .send(let startStep) = otherwise.first?.kind else { return XCTFail("else starts without send") }
        XCTAssertEqual(startStep.command, "start")
        guard case .chunks(let loop) = transfer.steps[1].kind else { return XCTFail("no chunks in the transfer") }
        XCTAssertEqual(loop.alias, "chunk")
        XCTAssertEqual(loop.data.node, .path(["image", "data"]))
        XCTAssertEqual(loop.from?.node, .path(["from"]))
        XCTAssertEqual(render(loop.size.node), "min(max_chunk, 4096)")
        XCTAssertTrue(loop.reportsProgress)
        guard case .retry(3, let chunkSteps) = loop.steps.first?.kind,
              case .send(let dataStep) = chunkSteps.first?.kind else {
            return XCTFail("the loop is not retry { send }")
        }
        XCTAssertEqual(dataStep.command, "data")
        XCTAssertEqual(dataStep.expect.map { render($0.node) }, ["(data.next_offset == chunk.end)"])

        // 3. phase verify (repeatable): retry 2 x { send verify with two expectations }
        guard case .phase(let verifyPhase) = profile.procedure[2].kind, verifyPhase.repeatable,
              case .retry(2, let verifySteps) = verifyPhase.steps.first?.kind,
              case .send(let verify) = verifySteps.first?.kind else {
            return XCTFail("step 3 is not a repeatable phase { retry { send verify } }")
        }
        XCTAssertEqual(verify.command, "verify")
        XCTAssertEqual(verify.expect.count, 2)
        XCTAssertNil(verify.timeout)
        XCTAssertNil(verify.retries)

        // 4. phase activate: send activate (it reboots the device), reconnect, check what runs
        guard case .phase(let activatePhase) = profile.procedure[3].kind,
              case .send(let activate) = activatePhase.steps.first?.kind else { return XCTFail("step 4 is not a phase") }
        XCTAssertEqual(activatePhase.achieves, .installed)
        XCTAssertEqual(activate.command, "activate")
        XCTAssertNotNil(profile.commands["activate"]?.reboots)
        guard case .reconnect = activatePhase.steps[1].kind else { return XCTFail("no reconnect after activate") }
    }
}
