import DFUGATT
import Foundation

/// `sim:NAME?fleet=N`: N simulated devices with distinct addresses (the configured address
/// plus 0...N-1) and distinct signal strengths, for `dfukit batch run`.
///
/// Every device keeps its state (a half-received image, an installed one) across attempts.
/// Each attempt gets its own world on its own virtual clock; a device's pending timers (a
/// reboot, a swap) carry over to the next attempt's world with the time they had left
/// (`SimulatedWorld.adoptDevices(from:)`), as the batch runner adds the attempts' simulated
/// times up per concurrency slot. The links of a world share one adapter's air time: with K
/// links open at once each gets `min(packets-per-event, adapter-packets / K)` packets per
/// connection event (at least one).
///
/// Device faults (`busy`, `disconnect-on`, `disconnect-after-command`) count over each device's
/// life; link faults apply to every attempt's world.
///
/// With `fault-rate=R`, a seeded share R of the devices stop answering part-way through
/// their first attempt (it fails after its resumes); later attempts have no fault. `faulty=2,3`
/// names such devices by number (from 1) as well.
///
/// With `realtime=SPEED` every attempt's world follows the wall clock (`WallClockPacing`), and
/// a batch then runs on the wall clock too; with `journal=DIR` every device notes what it lives
/// through in `DIR/journal.log` (`SimulatedDeviceJournal`).
///
/// Thread safety: a device (and its member record) is only touched by the one task that
/// holds its claim; the fleet's own state is immutable after creation.
public final class SimulatedFleet: @unchecked Sendable {
    /// The configuration every device was made from.
    public let configuration: SimulatorConfiguration
    private let members: [Member]
    private let faulty: Set<Int>
    /// `journal=`: shared by every attempt's world.
    private let journal: SimulatedDeviceJournal?

    /// One device, the address it was made with (it may advertise elsewhere later: a Nordic
    /// bootloader on address + 1, an application after a legacy update) and the world of its
    /// latest attempt.
    private final class Member {
        let device: any SimulatedPeripheral
        let address: DeviceAddress
        var lastWorld: SimulatedWorld?

        init(device: any SimulatedPeripheral, address: DeviceAddress) {
            self.device = device
            self.address = address
        }
    }

    private var devices: [any SimulatedPeripheral] { members.map(\.device) }

    /// A fleet of `configuration.fleet` devices on consecutive addresses. Throws when the journal
    /// directory cannot be opened or a device cannot be made.
    public init(_ configuration: SimulatorConfiguration) throws(SimulatorConfigurationError) {
        self.configuration = configuration
        self.journal = try configuration.journalDirectory.map(SimulatedDeviceJournal.opening(directory:))
        var devices: [any SimulatedPeripheral] = []
        for index in 0..<configuration.fleet {
            var member = configuration
            member.address = configuration.address.adding(Int64(index))
            devices.append(try SimulatedDeviceCatalog.makeWorld(member).peripherals[0])
        }
        self.members = devices.enumerated().map { index, device in
            Member(device: device, address: configuration.address.adding(Int64(index)))
        }
        var generator = SeededGenerator(seed: configuration.seed)
        faulty = Set((0..<configuration.fleet).filter { _ in Double.random(in: 0..<1, using: &generator) < configuration.faultRate })
            .union(configuration.faultyDevices.map { $0 - 1 }.filter { $0 < configuration.fleet })
    }

    /// What a scan sees: every device, the further down the list the weaker its signal
    /// (-35 dBm to -94 dBm), so a minimum RSSI selects the devices "in the fixture".
    public var advertisements: [Advertisement] {
        devices.enumerated().map { index, device in
            var advertisement = device.advertisement
            advertisement.rssi = -35 - (index * 7) % 60
            return advertisement
        }
    }

    /// Whether the device at this address fails its first attempt.
    package func isFaulty(_ address: DeviceAddress) -> Bool {
        index(of: address).map(faulty.contains) ?? false
    }

    /// A world for one attempt (1-based) at one device, with `concurrency` links sharing the adapter.
    public func world(for address: DeviceAddress, attempt: Int, concurrency: Int) -> SimulatedWorld? {
        guard let index = index(of: address) else { return nil }
        var settings = configuration.link
        settings.packetsPerEvent = max(1, min(settings.packetsPerEvent, configuration.adapterPackets / max(1, concurrency)))
        var faults = configuration.faults
        if attempt == 1, faulty.contains(index) {
            faults.unresponsiveAfterBytes = 2_000 + index * 37 % 4_000
        }
        let member = members[index]
        let world = SimulatedWorld(name: "sim:\(configuration.deviceName)?fleet=\(configuration.fleet)", settings: settings,
                                   faults: faults, peripherals: [member.device], pacing: configuration.pacing,
                                   journal: journal)
        if let previous = member.lastWorld { world.adoptDevices(from: previous) }
        member.lastWorld = world
        return world
    }

    /// The device itself, for tests.
    public func device(at address: DeviceAddress) -> (any SimulatedPeripheral)? {
        index(of: address).map { members[$0].device }
    }

    private func index(of address: DeviceAddress) -> Int? {
        members.firstIndex { $0.address == address || $0.device.advertisement.address == address }
    }
}

/// SplitMix64, so fleets are the same for the same seed on every machine.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
