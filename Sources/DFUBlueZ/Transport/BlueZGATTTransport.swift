import DFUATT
import DFUGATT
import Synchronization

/// `bluez:hciN`: the Linux kernel's Bluetooth stack through an adapter, as a `GATTTransport`.
/// Scanning uses the kernel's management interface (discovery) on that adapter; each connection is a kernel L2CAP socket
/// on the ATT channel (`BlueZL2CAPBearer`) with DFUKit's ATT client over it. Nothing is
/// opened until the first scan or connect. Time is the wall clock since creation.
///
/// Address types: each scanned address's type is remembered. A device not heard is looked
/// for by a short scan first; a Nordic bootloader on the application's address + 1 gets the
/// type of the address below it; with nothing known, both are tried, the likelier first.
public final class BlueZGATTTransport: GATTTransport, Sendable {
    /// `bluez:hciN`.
    public let name: String
    /// The adapter it scans and connects through.
    public let adapter: BlueZAdapter
    private let options: BlueZL2CAPBearer.Options
    private let syscalls: any BlueZSyscalls
    private let started = ContinuousClock.now
    private let heard = Mutex(BlueZScanResults())
    /// One scan or connection attempt at a time on the adapter.
    private let gate = AsyncGate()

    /// Which adapter names `BlueZGATTTransport` accepts: `hci0`, `hci1`...
    package static func isValidAdapterName(_ name: String) -> Bool { BlueZAdapter(name: name) != nil }

    /// `adapter` is `hciN`; `security` is the BT_SECURITY level each link must reach (nil: the
    /// kernel's default, unencrypted).
    public init(adapter: String, security: BlueZSecurityLevel? = nil, mtu: Int = 517,
                syscalls: any BlueZSyscalls = SystemBlueZSyscalls()) throws(GATTError) {
        guard let parsed = BlueZAdapter(name: adapter, syscalls: syscalls) else {
            throw GATTError(.transportUnavailable, detail: "bluez: '\(adapter)' is not an adapter name like hci0")
        }
        self.name = "bluez:" + adapter
        self.adapter = parsed
        self.options = BlueZL2CAPBearer.Options(security: security, mtu: mtu)
        self.syscalls = syscalls
    }

    public var now: Duration { ContinuousClock.now - started }

    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        let found = try await gate.serialized { () throws(GATTError) in
            try await scanResults(for: timeout)
        }
        return found.advertisements
    }

    private func scanResults(for duration: Duration,
                             until stop: @escaping @Sendable (BlueZScanResults) -> Bool = { _ in false })
        async throws(GATTError) -> BlueZScanResults {
        let adapter = self.adapter
        do throws(BlueZError) {
            let found = try await BlockingCall.run("DFUBlueZ scan \(adapter.name)",
                                                   cancelledError: { BlueZError("scan", errno: .interrupted,
                                                                                adapter: adapter.name) }) { () throws(BlueZError) in
                try adapter.scan(for: duration, stop: stop)
            }
            heard.withLock { $0.merge(found) }
            return found
        } catch {
            throw error.gattError
        }
    }

    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        let deadline = ContinuousClock.now + timeout
        let adapter = self.adapter
        let info: BlueZAdapterInfo
        do throws(BlueZError) {
            info = try await BlockingCall.run("DFUBlueZ adapter \(adapter.name)") { () throws(BlueZError) in
                try adapter.info()
            }
        } catch {
            throw error.gattError
        }
        // Opened before connecting, so the connection's HCI events are seen.
        let monitor = try? BlueZLinkMonitor.open(adapter: adapter, peer: address).get()
        let (bearer, parameters) = try await gate.serialized { () throws(GATTError) -> (BlueZL2CAPBearer, ParametersOutcome) in
            var types = heard.withLock { $0.addressType(of: address) }.map { [$0] }
            if types == nil {
                // Look for it (a device that just rebooted may take a moment to advertise). Best
                // effort: scanning needs CAP_NET_ADMIN, connecting does not.
                let found = try? await scanResults(for: min(timeout / 2, .seconds(5))) { $0.devices[address] != nil }
                types = found?.addressType(of: address).map { [$0] }
            }
            let candidates = types ?? addressTypes(for: address) ?? Self.likelyAddressTypes(of: address)
            var lastError: BlueZError?
            for (attempt, type) in candidates.enumerated() {
                var options = self.options
                let remaining = ContinuousClock.now.duration(to: deadline)
                options.connectTimeout = max(remaining / (candidates.count - attempt), .seconds(1))
                let parameters = await loadConnectionParameters(for: address, type: type)
                do throws(BlueZError) {
                    return (try await BlueZL2CAPBearer.connect(adapter: info, peer: address, peerType: type,
                                                               options: options, syscalls: syscalls), parameters)
                } catch {
                    lastError = error
                    // Another address type can only help when this one found nobody.
                    guard [.timedOut, .hostUnreachable, .connectionRefused].contains(error.errno) else { break }
                }
            }
            monitor?.close()
            throw (lastError ?? BlueZError("connect", errno: .hostUnreachable, adapter: adapter.name, address: address))
                .gattError
        }
        let link: ATTGATTLink
        do {
            link = try await ATTGATTLink.connect(bearer: bearer, address: address)
        } catch {
            monitor?.close()
            throw error
        }
        let proposedMTU = bearer.mtu
        link.grantReporter = { [bearer] in
            let bits = bearer.socketOption(level: BlueZConstants.solBluetooth, option: BlueZLinkGrant.btPHY, length: 4)
                .flatMap { $0.count == 4 ? UInt32($0[0]) | UInt32($0[1]) << 8 | UInt32($0[2]) << 16 | UInt32($0[3]) << 24 : nil }
            var requested = parameters.request
            requested.mtu = proposedMTU
            return BlueZLinkGrant.grant(events: monitor?.link, phyBits: bits, requested: requested,
                                        notes: parameters.note.map { [$0] } ?? [])
        }
        return link
    }

    /// What Load Connection Parameters achieved: the request the kernel took, or why none.
    struct ParametersOutcome: Sendable {
        var request = LinkGrant.Request()
        var note: String?
    }

    /// Asks the kernel, through the management interface, for a short connection interval on
    /// its next connection to `address` (best effort: it needs CAP_NET_ADMIN).
    private func loadConnectionParameters(for address: DeviceAddress, type: BlueZPeerAddressType) async -> ParametersOutcome {
        let adapter = self.adapter
        let entry = MgmtConnectionParameters(address: address, addressType: type.rawValue)
        do throws(BlueZError) {
            try await BlockingCall.run("DFUBlueZ connection parameters \(address)") { () throws(BlueZError) in
                try adapter.loadConnectionParameters(entry)
            }
            return ParametersOutcome(request: entry.request)
        } catch {
            return ParametersOutcome(note: "connection parameters not set (the kernel's defaults apply): \(error)")
        }
    }

    /// Listens through the adapter's discovery (which needs `CAP_NET_ADMIN`; without it,
    /// `.unsupported`, and the caller connects instead: the kernel's connect also waits for the
    /// device to advertise).
    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        let found: BlueZScanResults
        do {
            found = try await gate.serialized { () throws(GATTError) in
                try await scanResults(for: timeout) { $0.devices[address]?.isConnectable == true }
            }
        } catch where error.kind == .transportUnavailable {
            throw GATTError(.unsupported, address: address.description,
                            detail: "cannot listen for advertisements (\(error.detail))")
        }
        return found.devices[address].flatMap { $0.isConnectable ? $0.advertisement : nil }
    }

    public func sleep(until deadline: Duration) async {
        let remaining = deadline - now
        if remaining > .zero { try? await Task.sleep(for: remaining) }
    }

    /// The address types to try for `address` without scanning (nil: unknown): the type a scan
    /// heard, or for a Nordic bootloader on the application's address + 1, the application's
    /// type first.
    func addressTypes(for address: DeviceAddress) -> [BlueZPeerAddressType]? {
        heard.withLock { heard -> [BlueZPeerAddressType]? in
            if let type = heard.addressType(of: address) { return [type] }
            if let type = heard.addressType(of: address.adding(-1)) {
                return [type, type == .lePublic ? .leRandom : .lePublic]
            }
            return nil
        }
    }

    /// With nothing heard about `address`: random first when its two most significant bits are
    /// set, as a random static address's are (Core Vol 6, Part B, 1.3.2.1; what nRF5 SDK and
    /// Zephyr peripherals use by default), else public first.
    static func likelyAddressTypes(of address: DeviceAddress) -> [BlueZPeerAddressType] {
        address.bytes[0] & 0xC0 == 0xC0 ? [.leRandom, .lePublic] : [.lePublic, .leRandom]
    }

    /// Forgets what scans heard (the links close themselves).
    public func close() async {
        heard.withLock { $0 = BlueZScanResults() }
    }
}
