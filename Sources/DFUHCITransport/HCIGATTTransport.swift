import DFUATT
import DFUGATT
import DFUHCI
import Synchronization

/// `hci:tcp:HOST:PORT`, `hci:unix:PATH`, `hci:serial:PATH[,BAUD]`, `hci:user:N`: DFUKit's own
/// userspace host on a controller (DFUHCI) with the ATT client (DFUATT) on each connection,
/// as a `GATTTransport`. Opened lazily: the controller is reset on first use. Time is the
/// wall clock. Several links may be open at once (a provisioning line); connections are made
/// one at a time, as the controller creates them.
public final class HCIGATTTransport: GATTTransport, Sendable {
    /// `hci:` and the controller's address, e.g. `hci:tcp:127.0.0.1:9002`, for reports.
    public let name: String
    private let address: String
    private let traceFile: String?
    private let mtu: Int
    /// Pair (LE legacy, Just Works) and encrypt every link before ATT traffic.
    private let encrypt: Bool
    private let started = ContinuousClock.now
    private let state = Mutex(State())
    private let gate = AsyncGate()

    private struct State {
        var host: HCIHost?
        var heard: [DeviceAddress: HCIAdvertisement] = [:]
    }

    /// `address` is what follows `hci:` (`tcp:127.0.0.1:9002`); `traceFile` records every HCI
    /// packet as btsnoop; `encrypt` pairs with each device (Just Works) and encrypts the link
    /// before any ATT PDU, for profiles with `security: medium`.
    public init(address: String, traceFile: String? = nil, mtu: Int = 247, encrypt: Bool = false) {
        self.name = "hci:" + address
        self.address = address
        self.traceFile = traceFile
        self.mtu = mtu
        self.encrypt = encrypt
    }

    /// The wall clock since this transport was made (monotonic).
    public var now: Duration { ContinuousClock.now - started }

    private func openHost() async throws(GATTError) -> HCIHost {
        try await gate.serialized { () throws(GATTError) -> HCIHost in
            if let host = state.withLock({ $0.host }) { return host }
            do throws(HCIError) {
                let opened = try await HCIHost.open("hci:" + address, configuration: Self.configuration,
                                                    traceFile: traceFile)
                state.withLock { $0.host = opened }
                return opened
            } catch {
                throw error.gattError()
            }
        }
    }

    /// Opens the host on first use (resetting the controller), then scans actively for `timeout`,
    /// at most 2 s, and returns the connectable devices heard. Throws `.transportUnavailable` when
    /// the controller cannot be reached.
    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        let host = try await openHost()
        do {
            let seen = try await host.scan(for: min(timeout, .seconds(2)))
            state.withLock { state in
                for advertisement in seen { state.heard[advertisement.address] = advertisement }
            }
            return seen.filter(\.isConnectable).map(\.advertisement)
        } catch {
            throw error.gattError()
        }
    }

    /// Connects to `address` (scanning for it first unless heard already), pairs and encrypts the
    /// link when made with `encrypt`, then exchanges the ATT_MTU on the ATT fixed channel. Throws
    /// `.connectionFailed` when the device is not heard within `timeout` or refuses the link.
    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        let host = try await openHost()
        let channel = try await gate.serialized { () throws(GATTError) -> HCIATTChannel in
            do {
                var target = state.withLock { $0.heard[address] }
                if target == nil {
                    target = try await host.scan(timeout: timeout) { $0.address == address }
                    if let target { state.withLock { $0.heard[address] = target } }
                }
                guard let target else {
                    throw GATTError(.connectionFailed, address: address.description,
                                    detail: "not heard advertising within \(timeout) (is it powered and in range?)")
                }
                let channel = try await host.connect(to: target, timeout: timeout)
                if encrypt {
                    do {
                        try await host.pair(channel.handle)
                    } catch {
                        try? await channel.disconnect()
                        throw error
                    }
                }
                return channel
            } catch let error as GATTError {
                throw error
            } catch let error as HCIError {
                throw error.gattError(address: address)
            } catch {
                throw GATTError(.connectionFailed, address: address.description, detail: "\(error)")
            }
        }
        let link = try await ATTGATTLink.connect(bearer: HCIATTBearer(channel: channel, mtu: mtu), address: address)
        let handle = channel.handle, proposedMTU = mtu
        link.grantReporter = { [host] in
            await host.connection(handle)?.grant(configuration: host.configuration, proposedMTU: proposedMTU)
        }
        return link
    }

    /// The host's configuration: the defaults, with a short connection interval for the transfer.
    static var configuration: HCIHostConfiguration {
        var configuration = HCIHostConfiguration()
        configuration.connectionParameters = .fastTransfer
        return configuration
    }

    /// A fresh scan until `address` advertises as connectable, or nil after `timeout`: what was
    /// heard before the call does not count (a rebooted device must be heard again).
    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        let host = try await openHost()
        return try await gate.serialized { () throws(GATTError) -> Advertisement? in
            do throws(HCIError) {
                // A fresh scan: results heard before it started are forgotten.
                guard let heard = try await host.scan(timeout: timeout, until: { $0.address == address && $0.isConnectable })
                else { return nil }
                state.withLock { $0.heard[address] = heard }
                return heard.advertisement
            } catch {
                throw error.gattError(address: address)
            }
        }
    }

    /// Sleeps on the wall clock until `now` reaches `deadline`; returns at once if it has.
    public func sleep(until deadline: Duration) async {
        let remaining = deadline - now
        if remaining > .zero { try? await Task.sleep(for: remaining) }
    }

    /// Closes the controller connection.
    public func close() async {
        let host = state.withLock { state -> HCIHost? in
            defer { state.host = nil }
            return state.host
        }
        await host?.close()
    }
}
