import DFUATT
import DFUGATT
import DFUHCI

/// `hci:tcp:HOST:PORT`, `hci:unix:PATH`, `hci:serial:PATH[,BAUD]`, `hci:user:N`: DFUKit's own
/// userspace host on a controller (DFUHCI) with the ATT client (DFUATT) on each connection,
/// as a `GATTTransport`. Opened lazily: the controller is reset on first use. Time is the
/// wall clock.
public final class HCIGATTTransport: GATTTransport, @unchecked Sendable {
    public let name: String
    private let address: String
    private let traceFile: String?
    private let mtu: Int
    private let started = ContinuousClock.now
    private var host: HCIHost?
    private var heard: [DeviceAddress: HCIAdvertisement] = [:]

    /// `address` is what follows `hci:` (`tcp:127.0.0.1:9002`); `traceFile` records every HCI
    /// packet as btsnoop.
    public init(address: String, traceFile: String? = nil, mtu: Int = 247) {
        self.name = "hci:" + address
        self.address = address
        self.traceFile = traceFile
        self.mtu = mtu
    }

    public var now: Duration { ContinuousClock.now - started }

    private func openHost() async throws(GATTError) -> HCIHost {
        if let host { return host }
        do {
            let opened = try await HCIHost.open("hci:" + address, traceFile: traceFile)
            host = opened
            return opened
        } catch {
            throw error.gattError()
        }
    }

    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        let host = try await openHost()
        do {
            let seen = try await host.scan(for: min(timeout, .seconds(2)))
            for advertisement in seen { heard[advertisement.address] = advertisement }
            return seen.filter(\.isConnectable).map(\.advertisement)
        } catch {
            throw error.gattError()
        }
    }

    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        let host = try await openHost()
        do {
            var target = heard[address]
            if target == nil {
                target = try await host.scan(timeout: timeout) { $0.address == address }
                if let target { heard[address] = target }
            }
            guard let target else {
                throw GATTError(.connectionFailed, address: address.description,
                                detail: "not heard advertising within \(timeout) (is it powered and in range?)")
            }
            let channel = try await host.connect(to: target, timeout: timeout)
            return try await ATTGATTLink.connect(bearer: HCIATTBearer(channel: channel, mtu: mtu), address: address)
        } catch let error as GATTError {
            throw error
        } catch let error as HCIError {
            throw error.gattError(address: address)
        } catch {
            throw GATTError(.connectionFailed, address: address.description, detail: "\(error)")
        }
    }

    /// Resets nothing; closes the controller connection.
    public func close() async {
        await host?.close()
        host = nil
    }
}
