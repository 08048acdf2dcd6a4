import DFUEngine
import DFUProfile
import DFUSimulator
import DFUWire

/// A shipped profile over a simulated serial line or UDP: the device end modeled on the
/// firmware's own transport, the line's faults placed by what a baseline run carried.
public struct WireMatrixSubject: Sendable {
    public var name: String
    public var profile: String
    /// `serial` or `udp`: which of the profile's links.
    public var kind: WireLinkKind
    public var link: SimulatedWireLink
    public var image: FlashImage
    public var parameters: [String: ParameterValue]
    public var goal: DFUSimulator.FirmwareStage
    /// A fresh device end.
    public var makeDevice: @Sendable () -> any WireMatrixDevice

    public init(name: String, profile: String, kind: WireLinkKind = .serial, link: SimulatedWireLink, image: FlashImage,
                parameters: [String: ParameterValue] = [:], goal: DFUSimulator.FirmwareStage = .installed,
                makeDevice: @escaping @Sendable () -> any WireMatrixDevice) {
        self.name = name
        self.profile = profile
        self.kind = kind
        self.link = link
        self.image = image
        self.parameters = parameters
        self.goal = goal
        self.makeDevice = makeDevice
    }

    var target: TargetFirmware { TargetFirmware(bytes: image.data, imageHash: image.imageHash.isEmpty ? nil : image.imageHash) }

    /// The simulated devices with a serial or UDP transport, as users reach them.
    public static let all: [WireMatrixSubject] = [
        WireMatrixSubject(name: "nordic-secure-dfu over a UART", profile: "nordic-secure-dfu",
                          link: .serial(baud: 1_000_000), image: SweepFirmware.nordicSecure(size: 9_000),
                          parameters: ["prn": .integer(4)]) {
            NordicSerialDFUDevice(configuration: try! SimulatorConfiguration(parsing: "nordic-secure-dfu"))
        },
        WireMatrixSubject(name: "nordic-secure-dfu over USB CDC-ACM", profile: "nordic-secure-dfu",
                          link: .serial(baud: 1_000_000, usb: true), image: SweepFirmware.nordicSecure(size: 9_000)) {
            NordicSerialDFUDevice(configuration: try! SimulatorConfiguration(parsing: "nordic-secure-dfu"), transport: .usbCDCACM)
        },
        WireMatrixSubject(name: "mcumgr-smp over a console UART", profile: "mcumgr-smp", link: .serial(baud: 1_000_000),
                          image: SweepFirmware.mcuboot(payloadSize: 6_000)) {
            var settings = SMPServerSettings()
            settings.bufferSize = 384
            return SMPWireDevice(transport: .console, settings: settings, consoleLog: ZephyrConsoleLog())
        },
        WireMatrixSubject(name: "mcuboot-recovery over a UART", profile: "mcuboot-recovery", link: .serial(baud: 1_000_000),
                          image: SweepFirmware.mcuboot(payloadSize: 6_000), parameters: ["app_smp": .integer(1)]) {
            MCUbootSerialRecoveryDevice()
        },
        // An application that does not answer SMP: nothing shows what runs after the reset.
        WireMatrixSubject(name: "mcuboot-recovery, a silent application", profile: "mcuboot-recovery",
                          link: .serial(baud: 1_000_000, usb: true), image: SweepFirmware.mcuboot(payloadSize: 6_000)) {
            var settings = MCUbootSerialRecoverySettings()
            settings.applicationSpeaksSMP = false
            return MCUbootSerialRecoveryDevice(settings: settings)
        },
        WireMatrixSubject(name: "mcumgr-smp over UDP", profile: "mcumgr-smp", kind: .udp, link: .udp(),
                          image: SweepFirmware.mcuboot(payloadSize: 6_000)) {
            var settings = SMPServerSettings()
            settings.bufferSize = 2048
            return SMPWireDevice(transport: .udp(mtu: 1500), settings: settings)
        },
    ]
}

/// A simulated wire device that can say how far it got with an image.
public protocol WireMatrixDevice: SimulatedWirePeripheral {
    func stage(of target: TargetFirmware) -> FirmwareStageReport
}

extension NordicSerialDFUDevice: WireMatrixDevice {}
extension SMPWireDevice: WireMatrixDevice {}
extension MCUbootSerialRecoveryDevice: WireMatrixDevice {}
