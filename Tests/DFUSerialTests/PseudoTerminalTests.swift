@testable import DFUSerial
import DFUWire
import XCTest

final class PseudoTerminalTests: XCTestCase {
    func testRawBytesGoThroughBothWaysUnchanged() async throws {
        let device = try PseudoTerminal()
        let client = try SerialPortWire(path: device.clientPath, settings: SerialPortSettings(baudRate: .b921600))
        XCTAssertEqual(client.lineKind, .pseudoTerminal)
        XCTAssertNil(client.lineRate)

        let toDevice = lineDisciplineBytes + Array(0...255)
        try await client.send(toDevice)
        let atDevice = try await receiveBytes(toDevice.count, from: device)
        XCTAssertEqual(atDevice, toDevice)

        let toClient = Array((0...255).reversed()) + lineDisciplineBytes
        try await device.send(toClient)
        let atClient = try await receiveBytes(toClient.count, from: client)
        XCTAssertEqual(atClient, toClient)

        await client.close()
        await device.close()
    }

    func testTheDeviceEndServesAClientThatClosesAndOpensAgain() async throws {
        let directory = try temporaryDirectory(self)
        let link = directory.appendingPathComponent("device").path
        let device = try PseudoTerminal(linkPath: link)
        XCTAssertEqual(device.clientPath, link)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), device.subordinatePath)

        for round in 1...3 {
            let client = try SerialPortWire(path: link)
            try await client.send([UInt8(round), 0x0A])
            let request = try await receiveBytes(2, from: device)
            XCTAssertEqual(request, [UInt8(round), 0x0A], "round \(round)")
            try await device.send([0x0D, UInt8(round)])
            let answer = try await receiveBytes(2, from: client)
            XCTAssertEqual(answer, [0x0D, UInt8(round)], "round \(round)")
            await client.close()
            // The client is gone: the device end waits for the next one, it does not fail.
            let nothing = try await device.receive(until: device.now + .milliseconds(100))
            XCTAssertNil(nothing, "round \(round)")
        }
        await device.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: link), "the link is removed with the terminal")
    }

    func testWhatTheDeviceSentWhileNoClientWasThereIsFlushedWhenOneOpens() async throws {
        let device = try PseudoTerminal()
        try await device.send(Array("stale".utf8))
        let client = try SerialPortWire(path: device.clientPath)
        let stale = try await client.receive(until: client.now + .milliseconds(100))
        XCTAssertNil(stale)
        await client.close()
        await device.close()
    }

    func testAWriteNoClientReadsFailsAfterTheTimeout() async throws {
        let device = try PseudoTerminal(writeTimeout: .milliseconds(150))
        do {
            try await device.send([UInt8](repeating: 0x55, count: 1 << 20))
            XCTFail("1 MiB went into a terminal no client reads")
        } catch {
            XCTAssertEqual(error.kind, .io)
            XCTAssertTrue(error.detail.hasPrefix("no client reads the pseudo-terminal:"), error.description)
        }
        // The device end is still usable: a client that opens the port gets what comes next.
        let client = try SerialPortWire(path: device.clientPath)
        try await device.send([0x0A])
        let next = try await receiveBytes(1, from: client)
        XCTAssertEqual(next, [0x0A])
        await client.close()
        await device.close()
    }

    func testAClientReadsThatThePortWentAwayWhenTheDeviceEndCloses() async throws {
        let device = try PseudoTerminal()
        let client = try SerialPortWire(path: device.clientPath)
        await device.close()
        do {
            let bytes = try await client.receive(until: client.now + .seconds(2))
            XCTFail("received \(String(describing: bytes)) from a closed device end")
        } catch {
            XCTAssertEqual(error.kind, .closed)
            XCTAssertTrue(error.detail.contains("the port went away"), error.description)
        }
        await client.close()
    }

    func testALinkPathThatIsAFileIsRefused() async throws {
        let directory = try temporaryDirectory(self)
        let file = directory.appendingPathComponent("file").path
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("keep".utf8)))
        XCTAssertThrowsError(try PseudoTerminal(linkPath: file)) { error in
            let error = error as! WireError
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertTrue(error.detail.contains("not a symbolic link"), error.description)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: file), Data("keep".utf8))
    }

    func testAStaleLinkFromAnEarlierRunIsReplaced() async throws {
        let directory = try temporaryDirectory(self)
        let link = directory.appendingPathComponent("device").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/pts/999999")
        let device = try PseudoTerminal(linkPath: link)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), device.subordinatePath)
        await device.close()
    }
}
