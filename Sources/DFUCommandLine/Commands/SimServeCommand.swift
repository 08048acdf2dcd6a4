import DFUKit
import Foundation

/// `dfukit sim serve DEVICE (--pty PATH | --udp [HOST:]PORT) [--image PACKAGE] [--report FILE]`:
/// a simulated device on a pseudo-terminal or a UDP socket of this machine, on the wall clock at
/// its line's rate, for any client (smpmgr, mcumgr-toolkit, nrfutil, dfukit itself).
struct SimServeCommand: Command {
    static let name = "sim serve"
    static let summary = "Serve a simulated device on a pseudo-terminal or UDP, for any client, until stopped."
    static let usage = "dfukit sim serve DEVICE (--pty PATH | --udp [HOST:]PORT) [--image PACKAGE] [--report FILE]"
    static let options: [OptionSpec] = [
        OptionSpec("--pty", value: "PATH", help: "serve on a pseudo-terminal, linked at PATH (clients open PATH)"),
        OptionSpec("--udp", value: "[HOST:]PORT", help: "serve on UDP (127.0.0.1 unless HOST is given)"),
        OptionSpec("--image", value: "PACKAGE", help: "the package whose first image --report follows"),
        OptionSpec("--report", value: "FILE", help: "keep FILE (JSON) up to date with what the device holds of --image"),
    ]
    static let discussion = """
        DEVICE is a simulated device as after sim: with its link: nordic-secure-dfu?link=uart&baud=115200,
        mcumgr-smp?link=udp, mcuboot-recovery?link=usb (without link=, a pty serves link=pty and UDP link=udp).
        The line costs what it would (10 bits a byte at the baud rate, both ways), the device's timers run on
        the wall clock, and bytes sent while it reboots are lost. The first line on standard output says
        where it serves. The report holds device, stage, summary, bytes_received and bytes_sent.
        Exit: 0 when stopped by Ctrl-C or SIGTERM, 64 usage, 69 the port or socket cannot be opened.
        """

    let target: String
    let pty: String?
    let udp: String?
    let imagePath: String?
    let reportPath: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.count == 1 else {
            throw UsageError("name one simulated device, e.g. nordic-secure-dfu?link=uart", command: command)
        }
        target = arguments.positionals[0].hasPrefix("sim:") ? String(arguments.positionals[0].dropFirst(4))
            : arguments.positionals[0]
        pty = arguments.value("--pty")
        udp = arguments.value("--udp")
        guard (pty == nil) != (udp == nil) else { throw UsageError("give one of --pty and --udp", command: command) }
        imagePath = arguments.value("--image")
        reportPath = arguments.value("--report")
        if reportPath != nil, imagePath == nil {
            throw UsageError("--report follows the image of --image PACKAGE: give it", command: command)
        }
    }

    func run(_ console: any Console) async -> Int32 {
        let service: SimulatedWireService
        var package: FirmwarePackage?
        do {
            if let imagePath { package = try FirmwarePackage.open(path: imagePath) }
            service = try SimulatedWireService(target: target, pty: pty, udp: udp)
        } catch let error as DFUKitError {
            console.error("error: \(error.message)")
            return error.kind == .usage ? ExitCode.usage : ExitCode.unavailable
        } catch {
            console.error("error: \(error)")
            return ExitCode.dataError
        }
        console.out("serving \(service.description)")
        let report = Reporter(service: service, package: package, path: reportPath)
        report.write()
        let (result, _) = await InterruptHandling.run { () -> DFUKitError? in
            do throws(DFUKitError) {
                try await service.run { report.write() }
                return nil
            } catch {
                return error
            }
        }
        report.write()
        if let result {
            console.error("error: \(result.message)")
            return ExitCode.unavailable
        }
        return ExitCode.success
    }

    /// Writes what the device holds to the report file (atomically).
    private final class Reporter: @unchecked Sendable {
        let service: SimulatedWireService
        let package: FirmwarePackage?
        let path: String?

        init(service: SimulatedWireService, package: FirmwarePackage?, path: String?) {
            self.service = service
            self.package = package
            self.path = path
        }

        func write() {
            guard let path, let package else { return }
            let stage = service.stage(of: package)
            let object: [String: Any] = [
                "device": service.description,
                "stage": stage?.stage.rawValue ?? NSNull(),
                "summary": stage?.summary ?? NSNull(),
                "bytes_received": service.bytes.received,
                "bytes_sent": service.bytes.sent,
            ]
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
            let temporary = path + ".tmp"
            if FileManager.default.createFile(atPath: temporary, contents: data) {
                _ = rename(temporary, path)
            }
        }
    }
}
