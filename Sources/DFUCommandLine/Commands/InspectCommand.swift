import DFUKit
import Foundation

/// `dfukit inspect TRANSPORT/ADDRESS [--json]`: connects and dumps the GATT database.
struct InspectCommand: Command {
    static let name = "inspect"
    static let summary = "Connect to a device and list its GATT services and characteristics."
    static let usage = "dfukit inspect TRANSPORT/ADDRESS [--json]"
    static let options: [OptionSpec] = [OptionSpec("--json", help: "print one JSON object")]

    let device: DeviceSpecifier
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError("name one device, e.g. hci:tcp:127.0.0.1:9002/F0:DF:00:00:00:01", command: "dfukit \(Self.name)")
        }
        device = try DeviceSpecifier(parsing: arguments.positionals[0], command: "dfukit \(Self.name)")
        guard device.address != nil else {
            throw UsageError("give the device's address: TRANSPORT/ADDRESS (dfukit scan lists them)", command: "dfukit \(Self.name)")
        }
        json = arguments.flag("--json")
    }

    func run(_ console: any Console) async -> Int32 {
        guard let address = device.address else { return ExitCode.usage }
        let transport: any GATTTransport
        switch TransportFactory.open(device, console: console, command: "dfukit inspect") {
        case let .success(opened): transport = opened
        case let .failure(status): return status.code
        }
        let services: [GATTService]
        let mtu: Int
        let (result, interruption) = await InterruptHandling.run { () -> Result<(services: [GATTService], mtu: Int), GATTError> in
            do throws(GATTError) {
                let link = try await transport.connect(to: address, timeout: .seconds(10))
                do throws(GATTError) {
                    let services = try await link.discoverServices()
                    await link.disconnect()
                    return .success((services, link.mtu))
                } catch {
                    await link.disconnect()
                    throw error
                }
            } catch {
                return .failure(error)
            }
        }
        if let interruption {
            console.error(InterruptionSummary.text(interruption, nothingSentWhile: "connecting and discovering"))
            return interruption.exitCode
        }
        switch result {
        case let .success(found):
            (services, mtu) = found
        case let .failure(error):
            console.error("error: \(error)")
            return error.kind == .transportUnavailable ? ExitCode.unavailable : ExitCode.failure
        }
        if json {
            let object: [String: Any] = [
                "address": address.description, "mtu": mtu,
                "services": services.map { service in
                    ["uuid": service.uuid.description, "characteristics": service.characteristics.map {
                        ["uuid": $0.uuid.description, "handle": Int($0.valueHandle), "properties": $0.properties.names]
                    }] as [String: Any]
                },
            ]
            console.out(JSONOutput.line(object))
        } else {
            console.out("\(address): ATT MTU \(mtu)")
            for service in services {
                console.out("service \(service.uuid)")
                for characteristic in service.characteristics {
                    console.out("  characteristic \(characteristic.uuid)  handle 0x" + String(characteristic.valueHandle, radix: 16)
                                + "  " + characteristic.properties.names.joined(separator: ", "))
                }
            }
        }
        return ExitCode.success
    }
}
