import DFUEngine
import DFUProfile
import DFUSimulator

/// One profile as the fault matrix flashes it: the simulated device it runs against, the image,
/// the parameters, and the stage a verified update leaves the device in.
public struct MatrixSubject: Sendable {
    /// "mcumgr-smp", "nordic-secure-dfu buttonless"...
    public var name: String
    /// The profile's name under `profiles/`.
    public var profile: String
    /// `sim:` device without faults, e.g. "mcumgr-smp?mtu=247".
    public var device: String
    public var image: FlashImage
    public var parameters: [String: ParameterValue]
    public var goal: DFUSimulator.FirmwareStage
    /// `sim:` settings under which the device refuses the image (`min-size=32768`): one row
    /// each, which must end failed, saying the device holds what it held.
    public var refusals: [String] = []

    public init(name: String, profile: String, device: String, image: FlashImage,
                parameters: [String: ParameterValue] = [:], goal: DFUSimulator.FirmwareStage = .installed,
                refusals: [String] = []) {
        self.name = name
        self.profile = profile
        self.device = device
        self.image = image
        self.parameters = parameters
        self.goal = goal
        self.refusals = refusals
    }

    /// The device string with `faults` added (`&fault=...` for each).
    func device(with faults: [String], settings: [String] = []) -> String {
        let keys = settings + faults.map { "fault=" + $0 }
        let separator = device.contains("?") ? "&" : "?"
        return keys.isEmpty ? device : device + separator + keys.joined(separator: "&")
    }

    /// The image as the simulators' stage reports know it.
    var target: TargetFirmware { TargetFirmware(bytes: image.data, imageHash: image.imageHash.isEmpty ? nil : image.imageHash) }

    /// Every shipped profile, in the modes users run it: the subjects of the matrix.
    public static let all: [MatrixSubject] = [
        MatrixSubject(name: "vendor-ctrlpt", profile: "vendor-ctrlpt", device: "vendor-ctrlpt?mtu=247",
                      image: SweepFirmware.vendor(size: 18_000)),
        MatrixSubject(name: "nordic-secure-dfu", profile: "nordic-secure-dfu", device: "nordic-secure-dfu?mtu=247",
                      image: SweepFirmware.nordicSecure(size: 10_000), parameters: ["prn": .integer(4)]),
        MatrixSubject(name: "nordic-secure-dfu buttonless", profile: "nordic-secure-dfu",
                      device: "nordic-secure-dfu?mtu=185&buttonless=1", image: SweepFirmware.nordicSecure(size: 9_000)),
        MatrixSubject(name: "nordic-secure-dfu settings reload", profile: "nordic-secure-dfu",
                      device: "nordic-secure-dfu?mtu=247&resume=init", image: SweepFirmware.nordicSecure(size: 10_000),
                      parameters: ["prn": .integer(10)]),
        MatrixSubject(name: "nordic-legacy-dfu", profile: "nordic-legacy-dfu", device: "nordic-legacy-dfu?mtu=247",
                      image: SweepFirmware.nordicLegacy(size: 10_240), parameters: ["prn": .integer(10)]),
        MatrixSubject(name: "mcumgr-smp", profile: "mcumgr-smp", device: "mcumgr-smp?mtu=247",
                      image: SweepFirmware.mcuboot(payloadSize: 12_000)),
        MatrixSubject(name: "mcumgr-smp confirm-only", profile: "mcumgr-smp", device: "mcumgr-smp?mtu=498",
                      image: SweepFirmware.mcuboot(payloadSize: 9_000), parameters: ["mode": .text("confirm-only")]),
        MatrixSubject(name: "mcumgr-smp test-only", profile: "mcumgr-smp", device: "mcumgr-smp?mtu=185",
                      image: SweepFirmware.mcuboot(payloadSize: 6_000), parameters: ["mode": .text("test-only")],
                      goal: .unconfirmed),
        MatrixSubject(name: "dialog-suota", profile: "dialog-suota", device: "dialog-suota?mtu=247",
                      image: SweepFirmware.suota(codeSize: 6_000)),
        MatrixSubject(name: "ti-oad", profile: "ti-oad", device: "ti-oad?mtu=247", image: SweepFirmware.tiOAD(size: 6_000)),
        // min-size above the image: an application whose OTA server takes larger images only
        // refuses it with OTA_FW_SIZE_ERR at the packet holding the size.
        MatrixSubject(name: "telink-ota", profile: "telink-ota", device: "telink-ota?mtu=247",
                      image: SweepFirmware.telink(body: 16_384), refusals: ["min-size=32768"]),
        // A newer OTA server, which notifies its result before it ends the link.
        MatrixSubject(name: "telink-ota result feedback", profile: "telink-ota",
                      device: "telink-ota?mtu=247&result-feedback=1", image: SweepFirmware.telink(body: 16_384),
                      refusals: ["min-size=32768"]),
        MatrixSubject(name: "silabs-ota", profile: "silabs-ota", device: "silabs-ota?mtu=247",
                      image: SweepFirmware.gbl(programSize: 8_000)),
    ]
}
