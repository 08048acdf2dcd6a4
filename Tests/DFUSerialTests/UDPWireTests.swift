@testable import DFUSerial
import DFUWire
import XCTest

final class UDPWireTests: XCTestCase {
    func testDatagramsGoBothWaysWhole() async throws {
        let server = try UDPServerWire(port: 0)
        XCTAssertEqual(server.kind, .datagram)
        XCTAssertTrue(server.localAddress.hasPrefix("127.0.0.1:"), server.localAddress)
        let endpoint = UDPEndpoint(address: UDPAddress(host: "127.0.0.1", port: server.port))
        XCTAssertEqual(endpoint.description, "127.0.0.1:\(server.port)")
        let client = try await endpoint.open()
        XCTAssertEqual(client.kind, .datagram)
        XCTAssertEqual(client.description, "udp 127.0.0.1:\(server.port)")
        XCTAssertNil(client.lineRate)

        let first = lineDisciplineBytes
        let second = Array(0...255).map(UInt8.init)
        try await client.send(first)
        try await client.send(second)
        try await client.send([])
        let receivedFirst = try await server.receive(until: server.now + .seconds(2))
        let receivedSecond = try await server.receive(until: server.now + .seconds(2))
        let receivedEmpty = try await server.receive(until: server.now + .seconds(2))
        XCTAssertEqual(receivedFirst, first, "one datagram per send, never joined")
        XCTAssertEqual(receivedSecond, second)
        XCTAssertEqual(receivedEmpty, [])
        XCTAssertTrue(server.lastClient?.hasPrefix("127.0.0.1:") == true, "\(String(describing: server.lastClient))")

        try await server.send([0x06, 0x09, 0x00])
        let reply = try await client.receive(until: client.now + .seconds(2))
        XCTAssertEqual(reply, [0x06, 0x09, 0x00])

        let large = [UInt8](repeating: 0xA5, count: 60000)
        try await server.send(large)
        let receivedLarge = try await client.receive(until: client.now + .seconds(2))
        XCTAssertEqual(receivedLarge, large)

        await client.close()
        await server.close()
    }

    func testTheServerRepliesToTheClientOfTheLastDatagram() async throws {
        let server = try UDPServerWire(port: 0)
        let address = UDPAddress(host: "127.0.0.1", port: server.port)
        let alice = try UDPWire(address: address)
        let bob = try UDPWire(address: address)
        try await alice.send(Array("alice".utf8))
        _ = try await server.receive(until: server.now + .seconds(2))
        try await server.send(Array("to alice".utf8))
        try await bob.send(Array("bob".utf8))
        _ = try await server.receive(until: server.now + .seconds(2))
        try await server.send(Array("to bob".utf8))
        let atAlice = try await alice.receive(until: alice.now + .seconds(2))
        let atBob = try await bob.receive(until: bob.now + .seconds(2))
        XCTAssertEqual(atAlice.map { String(decoding: $0, as: UTF8.self) }, "to alice")
        XCTAssertEqual(atBob.map { String(decoding: $0, as: UTF8.self) }, "to bob")
        let more = try await alice.receive(until: alice.now + .milliseconds(50))
        XCTAssertNil(more, "bob's reply went to bob only")
        await alice.close()
        await bob.close()
        await server.close()
    }

    func testNothingListeningIsReportedAndTheWireStaysOpen() async throws {
        // A port nothing listens on: bound, noted, closed.
        let gone = try UDPServerWire(port: 0)
        let port = gone.port
        await gone.close()
        let client = try UDPWire(address: UDPAddress(host: "127.0.0.1", port: port))
        try await client.send([0x01])
        do {
            let answer = try await client.receive(until: client.now + .seconds(2))
            XCTFail("an answer from nothing: \(String(describing: answer))")
        } catch {
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertEqual(error.wire, "udp 127.0.0.1:\(port)")
            XCTAssertTrue(error.detail.hasPrefix("nothing listens on 127.0.0.1:\(port)"), error.description)
        }
        // The wire is still usable: the device may come up.
        let nothing = try await client.receive(until: client.now + .milliseconds(20))
        XCTAssertNil(nothing)
        await client.close()
    }

    func testAServerReplyBeforeAnyClientIsRefused() async throws {
        let server = try UDPServerWire(port: 0)
        do {
            try await server.send([1])
            XCTFail("a reply to no one")
        } catch {
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertTrue(error.detail.contains("no client has sent a datagram yet"), error.description)
        }
        await server.close()
    }

    func testAPortInUseIsRefusedSayingSo() async throws {
        let first = try UDPServerWire(port: 0)
        XCTAssertThrowsError(try UDPServerWire(port: first.port)) { error in
            let error = error as! WireError
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertTrue(error.detail.contains("EADDRINUSE"), error.description)
            XCTAssertTrue(error.detail.contains("another server listens there"), error.description)
        }
        await first.close()
    }

    func testIPv6LoopbackRoundTrip() async throws {
        let server: UDPServerWire
        do {
            server = try UDPServerWire(port: 0, host: "::1")
        } catch {
            print("testIPv6LoopbackRoundTrip skipped: no IPv6 loopback here (\(error))")
            throw XCTSkip("no IPv6 loopback here: \(error)")
        }
        XCTAssertEqual(server.localAddress, "[::1]:\(server.port)")
        let address = try UDPAddress(parsing: "udp:[::1]:\(server.port)")
        let client = try UDPWire(address: address)
        XCTAssertEqual(client.peer, "[::1]:\(server.port)")
        try await client.send([0x00, 0x0D, 0x0A])
        let received = try await server.receive(until: server.now + .seconds(2))
        XCTAssertEqual(received, [0x00, 0x0D, 0x0A])
        try await server.send([0x0A])
        let reply = try await client.receive(until: client.now + .seconds(2))
        XCTAssertEqual(reply, [0x0A])
        await client.close()
        await server.close()
    }

    func testAHostNameIsResolved() async throws {
        let server = try UDPServerWire(port: 0, host: "localhost")
        let client = try UDPWire(address: UDPAddress(host: "localhost", port: server.port))
        XCTAssertEqual(client.peer, server.localAddress, "the first address of the name, as the server bound")
        try await client.send([0x42])
        let received = try await server.receive(until: server.now + .seconds(2))
        XCTAssertEqual(received, [0x42])
        await client.close()
        await server.close()
    }

    func testAddressesParse() throws {
        XCTAssertEqual(try UDPAddress(parsing: "udp:127.0.0.1:1337"), UDPAddress(host: "127.0.0.1", port: 1337))
        XCTAssertEqual(try UDPAddress(parsing: "192.168.1.20:1337"), UDPAddress(host: "192.168.1.20", port: 1337))
        XCTAssertEqual(try UDPAddress(parsing: "udp:[::1]:1337"), UDPAddress(host: "::1", port: 1337))
        XCTAssertEqual(try UDPAddress(parsing: "udp:[fe80::1%eth0]:5683"), UDPAddress(host: "fe80::1%eth0", port: 5683))
        XCTAssertEqual(try UDPAddress(parsing: "udp:device.local:1337"), UDPAddress(host: "device.local", port: 1337))
        XCTAssertEqual(UDPAddress(host: "::1", port: 1337).description, "[::1]:1337")
        XCTAssertEqual(UDPAddress(host: "127.0.0.1", port: 1337).description, "127.0.0.1:1337")
        let refused: [(String, String)] = [
            ("udp:::1:1337", "must be written in brackets"),
            ("udp:127.0.0.1", "no port"),
            ("udp:127.0.0.1:0", "from 1 to 65535"),
            ("udp:127.0.0.1:70000", "from 1 to 65535"),
            ("udp::1337", "no host"),
            ("udp:[::1]1337", "no :PORT"),
            ("udp:[::1:1337", "not closed"),
        ]
        for (text, expected) in refused {
            XCTAssertThrowsError(try UDPAddress(parsing: text), text) { error in
                let error = error as! WireSettingError
                XCTAssertEqual(error.setting, "udp address")
                XCTAssertTrue(error.detail.contains(expected), "\(text): \(error)")
                XCTAssertTrue(error.detail.contains("udp:HOST:PORT"), "\(text): \(error)")
            }
        }
    }
}
