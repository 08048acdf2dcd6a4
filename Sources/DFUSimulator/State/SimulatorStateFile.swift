import Foundation

/// `sim:NAME?state=FILE`: a versioned JSON file holding one simulated device's memory.
///
/// ```json
/// {"format": "dfukit-simulator-state", "version": 1, "device": "mcumgr-smp",
///  "address": "C0:FF:EE:00:00:01", "memory": {...}}
/// ```
/// `memory` is the device's own `SimulatedMemoryKeeping.Memory` (byte arrays as base64). The file
/// is written atomically (a temporary file in the same directory, then renamed over it), so a
/// command stopped half-way leaves the previous state whole.
public struct SimulatorStateFile: Sendable {
    /// The `format` every state file carries.
    public static let format = "dfukit-simulator-state"
    /// The file layout version this build writes and reads.
    public static let version = 1

    /// The file's path.
    public let path: String

    /// The state file at `path` (nothing is read until `load`).
    public init(path: String) {
        self.path = path
    }

    /// The devices `state=` works with.
    package static let supportedDevices = ["mcumgr-smp", "vendor-ctrlpt", "telink-ota", "ti-oad", "silabs-ota"]

    private struct Header: Codable {
        var format: String
        var version: Int
        var device: String
        var address: String
    }

    private struct Envelope<Memory: Codable>: Codable {
        var format: String
        var version: Int
        var device: String
        var address: String
        var memory: Memory
    }

    /// Whether the file exists (a missing file means a device fresh from the factory).
    package var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// The device of `world` (its only one) as the file describes it; nothing when the file
    /// does not exist yet.
    public func load(into world: SimulatedWorld, device name: String) throws(SimulatorStateError) {
        let keeper = try Self.keeper(of: world, device: name)
        guard exists else { return }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SimulatorStateError("cannot read the simulator state file \(path): \(error.localizedDescription)")
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw SimulatorStateError("\(path) is not a simulator state file (\(error)); remove it to start from a "
                                          + "device fresh from the factory")
        }
        guard header.format == Self.format else {
            throw SimulatorStateError("\(path) is not a simulator state file (format '\(header.format)', expected '\(Self.format)')")
        }
        guard header.version == Self.version else {
            throw SimulatorStateError("\(path) is a version \(header.version) simulator state file; this dfukit reads "
                                          + "version \(Self.version)")
        }
        guard header.device == name else {
            throw SimulatorStateError("\(path) holds the state of a sim:\(header.device), not of a sim:\(name)")
        }
        do {
            try keeper.restoreFromFile(data)
        } catch {
            throw SimulatorStateError("\(path): \(error)")
        }
    }

    /// Writes the memory of the device of `world`: a temporary file next to `path`, renamed over it.
    public func save(_ world: SimulatedWorld, device name: String) throws(SimulatorStateError) {
        let keeper = try Self.keeper(of: world, device: name)
        let data: Data
        do {
            data = try keeper.fileData(device: name)
        } catch {
            throw SimulatorStateError("cannot encode the state of sim:\(name): \(error)")
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw SimulatorStateError(reason)
            }
        } catch {
            throw SimulatorStateError("cannot write the simulator state file \(path): \(error)")
        }
    }

    private static func keeper(of world: SimulatedWorld, device name: String) throws(SimulatorStateError) -> any SimulatedMemoryKeeping {
        guard world.peripherals.count == 1, let keeper = world.peripherals[0] as? any SimulatedMemoryKeeping else {
            throw SimulatorStateError("sim:\(name) cannot keep its memory in a state file yet; state= works with "
                                          + supportedDevices.map { "sim:\($0)" }.joined(separator: ", "))
        }
        return keeper
    }

    fileprivate static func envelope<Memory: Codable>(_ memory: Memory, device: String, address: String) -> some Encodable {
        Envelope(format: format, version: version, device: device, address: address, memory: memory)
    }

    fileprivate static func memory<Memory: Codable>(_ type: Memory.Type, from data: Data) throws -> Memory {
        try JSONDecoder().decode(Envelope<Memory>.self, from: data).memory
    }
}

extension SimulatedMemoryKeeping {
    fileprivate func fileData(device: String) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(SimulatorStateFile.envelope(memory, device: device,
                                                              address: advertisement.address.description))
    }

    fileprivate func restoreFromFile(_ data: Data) throws(SimulatorStateError) {
        let decoded: Memory
        do {
            decoded = try SimulatorStateFile.memory(Memory.self, from: data)
        } catch {
            throw SimulatorStateError("its memory does not read as a sim device's memory (\(error))")
        }
        try restore(decoded)
    }
}
