import XCTest
import DFUGATT
@testable import DFUHCI

/// What the host asks of a new connection (2M PHY, 251-byte LL payloads, a short interval) and
/// what it reports as granted, against the in-memory controller.
final class LinkGrantNegotiationTests: XCTestCase {
    private static let peer = DeviceAddress(string: "F0:01:02:03:04:05")!

    private func connect(_ settings: FakeController.Settings,
                         _ tune: (inout HCIHostConfiguration) -> Void = { _ in }) async throws -> (HCIHost, HCIConnection) {
        let controller = FakeController(settings)
        var configuration = HCIHostConfiguration()
        configuration.commandTimeout = .milliseconds(300)
        configuration.optionalCommandTimeout = .milliseconds(100)
        configuration.randomAddress = DeviceAddress(string: "C3:11:22:33:44:55")
        configuration.connectionParameters = .fastTransfer
        tune(&configuration)
        let host = HCIHost(pipe: controller, configuration: configuration)
        try await host.start()
        let channel = try await withTimeout(5, "connect") {
            try await host.connect(to: Self.peer, addressType: .randomDevice, timeout: .seconds(1))
        }
        let found = await host.connection(channel.handle)
        let connection = try XCTUnwrap(found)
        return (host, connection)
    }

    /// Both upgrades granted: the connection already holds the controller's answers when
    /// `connect` returns (it waits for them), and the grant says so with nothing to explain.
    func testGrantedUpgradesAreInTheConnectionWhenConnectReturns() async throws {
        let (host, connection) = try await connect(.init(dataLength: .supported, phy: .supported))
        XCTAssertEqual(connection.dataLengthRequest, .requested)
        XCTAssertEqual(connection.phyRequest, .requested)
        let grant = connection.grant(configuration: host.configuration, proposedMTU: 247)
        XCTAssertEqual(grant.source, .controller)
        XCTAssertEqual(grant.txPHY, .le2M)
        XCTAssertEqual(grant.rxPHY, .le2M)
        XCTAssertEqual(grant.txOctets, 251)
        XCTAssertEqual(grant.txTime, 2120)
        // The fake controller grants the longest interval asked for: 12 x 1.25 ms.
        XCTAssertEqual(grant.interval, 15000)
        XCTAssertEqual(grant.supervisionTimeout, 2000)
        XCTAssertEqual(grant.requested, LinkGrant.Request(phy: .le2M, dataLength: 251, mtu: 247, intervalMin: 7500,
                                                          intervalMax: 15000, latency: 0, supervisionTimeout: 2000))
        XCTAssertEqual(grant.notes, [])
        XCTAssertEqual(grant.summary, "2M PHY, data length 251, MTU not reported, interval 15 ms "
                       + "(asked: 2M PHY, data length 251, MTU 247, interval 7.5-15 ms)")
        await host.close()
    }

    /// The new connection asks for 7.5-15 ms in LE Create Connection.
    func testCreateConnectionAsksForTheFastTransferInterval() async throws {
        let controller = FakeController(.init())
        var configuration = HCIHostConfiguration()
        configuration.optionalCommandTimeout = .milliseconds(100)
        configuration.connectionParameters = .fastTransfer
        let host = HCIHost(pipe: controller, configuration: configuration)
        try await host.start()
        _ = try await withTimeout(5, "connect") {
            try await host.connect(to: Self.peer, addressType: .randomDevice, timeout: .seconds(1))
        }
        let create = try XCTUnwrap(controller.commands.first { $0.opcode == LECreateConnectionCommand.opcode })
            .decode(as: LECreateConnectionCommand.self)
        XCTAssertEqual(create.connectionIntervalMin, 6)
        XCTAssertEqual(create.connectionIntervalMax, 12)
        XCTAssertEqual(create.maxLatency, 0)
        XCTAssertTrue(HCIConnectionParameters.fastTransfer.isValid)
        await host.close()
    }

    /// Refusals are explained: a command the controller does not know (Bumble's LE Set Data
    /// Length), one it never answers (Bumble's LE Set PHY), a feature it lacks.
    func testRefusalsAreExplainedInTheNotes() async throws {
        let (host, connection) = try await connect(.init(dataLength: .unknownCommand, phy: .unanswered))
        XCTAssertEqual(connection.dataLengthRequest, .commandUnsupported)
        XCTAssertEqual(connection.phyRequest, .commandUnsupported)
        let grant = connection.grant(configuration: host.configuration, proposedMTU: 247)
        XCTAssertEqual(grant.txPHY, .le1M)
        XCTAssertEqual(grant.txOctets, 27)
        XCTAssertNil(grant.txTime)
        XCTAssertEqual(grant.notes, [
            "the controller did not take LE Set Data Length (unknown, unsupported or unanswered)",
            "the controller did not take LE Set PHY (unknown, unsupported or unanswered)",
        ])
        await host.close()

        let (lacking, plain) = try await connect(.init(features: [], dataLength: .supported, phy: .supported))
        XCTAssertEqual(plain.dataLengthRequest, .controllerLacksFeature)
        XCTAssertEqual(plain.phyRequest, .controllerLacksFeature)
        XCTAssertEqual(plain.grant(configuration: lacking.configuration, proposedMTU: 247).notes, [
            "the controller has no data length extension feature", "the controller has no 2M PHY feature",
        ])
        await lacking.close()
    }

    /// Not asked for (configuration off): nothing sent, nothing requested, nothing to explain.
    func testUpgradesNotAskedForAreNotRequested() async throws {
        let (host, connection) = try await connect(.init(dataLength: .supported, phy: .supported)) {
            $0.requestDataLength = false
            $0.request2MPHY = false
        }
        XCTAssertEqual(connection.dataLengthRequest, .notAsked)
        XCTAssertEqual(connection.txPHY, 1)
        let grant = connection.grant(configuration: host.configuration, proposedMTU: 23)
        XCTAssertNil(grant.requested.phy)
        XCTAssertNil(grant.requested.dataLength)
        XCTAssertEqual(grant.notes, [])
        await host.close()
    }

    /// An interval outside the range asked for (the device asked for its own) is pointed out.
    func testAnIntervalOutsideTheRangeAskedForIsPointedOut() {
        var connection = HCIConnection(handle: 0x40, peerAddress: Self.peer, peerAddressType: .randomDevice,
                                       interval: 40, latency: 4, supervisionTimeout: 400)
        connection.phyRequest = .refused(.unsupportedRemoteFeature)
        var configuration = HCIHostConfiguration()
        configuration.connectionParameters = .fastTransfer
        let grant = connection.grant(configuration: configuration, proposedMTU: 247)
        XCTAssertEqual(grant.interval, 50000)
        XCTAssertEqual(grant.latency, 4)
        XCTAssertEqual(grant.supervisionTimeout, 4000)
        XCTAssertEqual(grant.notes.count, 2)
        XCTAssertTrue(grant.notes[0].hasPrefix("LE Set PHY refused: "), grant.notes[0])
        XCTAssertTrue(grant.notes[1].hasPrefix("the interval is not the one asked for"), grant.notes[1])
    }
}
