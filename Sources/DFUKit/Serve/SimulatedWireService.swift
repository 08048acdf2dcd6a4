import DFUPackage
import DFUSerial
import DFUSimulator
import DFUWire

/// A simulated device served on a pseudo-terminal or a UDP socket of this machine, on the wall
/// clock (`dfukit sim serve`): what third-party clients (smpmgr, mcumgr-toolkit, nrfutil) and
/// `dfukit` itself flash in `make test-serial`, each run then checked by what the device holds.
///
/// One task runs it; `stage(of:)` and `bytes` are read from `run`'s `onChange` (on that task) or
/// once `run` has returned, never while it runs elsewhere (hence `@unchecked Sendable`: a service
/// is handed to the task that runs it).
public final class SimulatedWireService: @unchecked Sendable {
    /// What is served, where: `sim:nordic-secure-dfu (uart 115200 baud) on /tmp/dev (/dev/pts/4)`.
    public let description: String
    /// The path a client opens (the pseudo-terminal's link, or its /dev/pts name); nil over UDP.
    public let clientPath: String?
    private let server: WireDeviceServer
    private let device: any SimulatedWirePeripheral
    private let wire: any ByteWire

    /// Serves `target` (`NAME?link=uart&baud=115200`, as after `sim:`) on the pseudo-terminal
    /// whose link is `pty`, or on UDP `udp` (`PORT` or `HOST:PORT`). Without `link=`, a pty
    /// serves `link=pty` and UDP `link=udp`.
    /// - Throws: `.usage` for a target or address that is wrong, `.transport` when the port or
    ///   socket cannot be opened.
    public init(target: String, pty: String?, udp: String?) throws(DFUKitError) {
        guard (pty == nil) != (udp == nil) else {
            throw DFUKitError(kind: .usage, message: "serve on a pseudo-terminal or on UDP: give one of them")
        }
        let linked = target.contains("link=") ? target
            : target + (target.contains("?") ? "&" : "?") + "link=" + (pty != nil ? "pty" : "udp")
        guard let parsed = try SimulatedWireTarget.parse(linked) else {
            throw DFUKitError(kind: .usage, message: "sim:\(target) names no link")
        }
        if (parsed.link == .udp) != (udp != nil) {
            throw DFUKitError(kind: .usage, message: "sim:\(linked): link=\(parsed.link.rawValue) "
                              + (udp != nil ? "is not served over UDP" : "is served over UDP, not a pseudo-terminal"))
        }
        device = parsed.makeDevice()
        if let pty {
            let terminal: PseudoTerminal
            do { terminal = try PseudoTerminal(linkPath: pty) } catch {
                throw DFUKitError(kind: .transport, message: error.description)
            }
            wire = terminal
            clientPath = terminal.clientPath
            description = "sim:\(linked) (\(parsed.wireLink)) on \(terminal.clientPath) (\(terminal.subordinatePath))"
        } else {
            let text = udp ?? ""
            let address: UDPAddress
            do { address = try UDPAddress(parsing: text.contains(":") ? text : "127.0.0.1:\(text)") } catch {
                throw DFUKitError(kind: .usage, message: "--udp \(text): \(error)")
            }
            let socket: UDPServerWire
            do { socket = try UDPServerWire(port: address.port, host: address.host) } catch {
                throw DFUKitError(kind: .transport, message: error.description)
            }
            wire = socket
            clientPath = nil
            description = "sim:\(linked) (\(parsed.wireLink)) on udp \(socket.localAddress)"
        }
        server = WireDeviceServer(device: device, wire: wire, link: parsed.wireLink)
    }

    /// Serves until the task is cancelled; `onChange` is told, at most every `every` and on the
    /// server's own task, that the device may hold something else (to write a report).
    public func run(every: Duration = .milliseconds(200), onChange: @escaping () -> Void = {}) async throws(DFUKitError) {
        var last: ContinuousClock.Instant?
        server.onTurn = {
            let now = ContinuousClock.now
            if let previous = last, now - previous < every { return }
            last = now
            onChange()
        }
        do {
            try await server.run()
        } catch {
            throw DFUKitError(kind: .transport, message: error.description)
        }
        await wire.close()
    }

    /// How far the device got with the image in `package` (its first image), and why; nil for a
    /// device that cannot say.
    public func stage(of package: FirmwarePackage) -> FirmwareStageReport? {
        guard let reporting = device as? any WireDeviceStageReporting, let image = package.images.first else { return nil }
        return reporting.stage(of: TargetFirmware(bytes: image.data))
    }

    /// Bytes the device received and sent so far, framing included.
    public var bytes: (received: Int, sent: Int) { (server.bytesReceived, server.bytesSent) }
}

/// A simulated wire device that can say how far it got with an image.
protocol WireDeviceStageReporting {
    func stage(of target: TargetFirmware) -> FirmwareStageReport
}

extension NordicSerialDFUDevice: WireDeviceStageReporting {}
extension SMPWireDevice: WireDeviceStageReporting {}
extension MCUbootSerialRecoveryDevice: WireDeviceStageReporting {}
