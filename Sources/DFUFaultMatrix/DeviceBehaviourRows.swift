import DFUBytes
import DFUEngine
import DFUPackage
import DFUSimulator

/// A matrix case where the simulated device behaves as some shipped firmware does (issue 21):
/// the update runs without an injected fault, against a device option (`sim:` keys), and the
/// report must match what the device then truly holds. `truth` is that stage, known from the
/// vendor's sources; `FaultMatrix.baseline` runs the case and classifies it as every matrix row.
///
/// `make fault-matrix` runs each once after the fault sweeps, and `DeviceBehaviourRowTests` in
/// `make test`: the report must name the device's true stage among what it may hold (a report
/// more hopeful or more pessimistic than the device is silent), with an error that says so.
public struct DeviceBehaviourRow: Sendable {
    /// The subject: a shipped profile against a device with the behaviour's option.
    public var subject: MatrixSubject
    /// The stage the device is in after the update, whatever the tool reports.
    public var truth: DFUSimulator.FirmwareStage
    /// What the device does and where the vendor's source says so.
    public var behaviour: String

    public init(subject: MatrixSubject, truth: DFUSimulator.FirmwareStage, behaviour: String) {
        self.subject = subject
        self.truth = truth
        self.behaviour = behaviour
    }

    /// Every behaviour row, per protocol.
    public static let all: [DeviceBehaviourRow] = [
        DeviceBehaviourRow(
            subject: MatrixSubject(name: "dialog-suota xor-neutral corruption", profile: "dialog-suota",
                                   device: "dialog-suota?mtu=247&corrupt-stored=1000", image: SweepFirmware.suota(codeSize: 6_000)),
            truth: .unchanged,
            behaviour: "a byte stored wrong that the XOR over the received bytes cannot see: CMP_OK and the bank valid, "
                + "then the secondary bootloader's CRC-32 (loadActiveImage) fails and the factory image boots"),
        DeviceBehaviourRow(
            subject: MatrixSubject(name: "dialog-suota no reset, link kept", profile: "dialog-suota",
                                   device: "dialog-suota?mtu=247&on-reboot=ignore", image: SweepFirmware.suota(codeSize: 6_000)),
            truth: .pending,
            behaviour: "the reboot command is answered and nothing happens: the old image runs, the new one is valid "
                + "and boots at the next reset"),
        DeviceBehaviourRow(
            subject: MatrixSubject(name: "dialog-suota no reset after the disconnect", profile: "dialog-suota",
                                   device: "dialog-suota?mtu=247&on-reboot=disconnect", image: SweepFirmware.suota(codeSize: 6_000)),
            truth: .pending,
            behaviour: "app_suotar.c ends the link but user_app_on_disconnect does not reset: the old image advertises again"),
        DeviceBehaviourRow(
            subject: MatrixSubject(name: "ti-oad BIM keeps the old image, same version", profile: "ti-oad",
                                   device: "ti-oad?mtu=247&bim-crc=fails&sw-version=0002",
                                   image: SweepFirmware.tiOAD(size: 6_000, softwareVersion: "0002")),
            truth: .unchanged,
            behaviour: "DL_COMPLETE and 04 00, then the off-chip BIM's CRC of the copy fails (bim_offchip_main.c) and it "
                + "reverts to the factory image, which has the new image's softVer"),
        DeviceBehaviourRow(
            subject: MatrixSubject(name: "ti-oad reset before the enable answer", profile: "ti-oad",
                                   device: "ti-oad?mtu=247&enable-answer=lost", image: SweepFirmware.tiOAD(size: 6_000)),
            truth: .installed,
            behaviour: "oad.c calls OAD_DL_COMPLETE_EVT before it sends 04 00 and the reset wins: no answer, the new image runs "
                + "and answers 07"),
        DeviceBehaviourRow(
            subject: MatrixSubject(name: "silabs-ota answer to 03 lost every time", profile: "silabs-ota",
                                   device: "silabs-ota?mtu=247&end-answer=lost", image: SweepFirmware.gbl(programSize: 8_000)),
            truth: .installed,
            behaviour: "the AppLoader verified the image; the link drops before its answer to 03 and the reset at that "
                + "disconnect boots the new application"),
        DeviceBehaviourRow(
            subject: MatrixSubject(name: "silabs-ota LZ4 tag refused", profile: "silabs-ota",
                                   device: "silabs-ota?mtu=247&compression=refused",
                                   image: SweepFirmware.gbl(tags: [SweepFirmware.gblApplicationTag(version: 2),
                                                                  (0xFD05_05FD, SweepFirmware.u32(0x6000) + SweepFirmware.payload(size: 4_000))])),
            truth: .unchanged,
            behaviour: "an LZ4 program tag to a bootloader without the compression components: 0x84 before any program "
                + "data, the application boots"),
        DeviceBehaviourRow(
            subject: MatrixSubject(name: "silabs-ota unknown tag before program data", profile: "silabs-ota",
                                   device: "silabs-ota?mtu=247",
                                   image: SweepFirmware.gbl(tags: [(0x1234_5678, [0, 0, 0, 0]), SweepFirmware.gblApplicationTag(version: 2),
                                                                  (0xFD03_03FD, SweepFirmware.u32(0x6000) + SweepFirmware.payload(size: 4_000))])),
            truth: .unchanged,
            behaviour: "BOOTLOADER_ERROR_PARSER_UNKNOWN_TAG (0x84) before any program data: the application boots"),
        DeviceBehaviourRow(
            subject: MatrixSubject(name: "silabs-ota program data at 0", profile: "silabs-ota",
                                   device: "silabs-ota?mtu=247&app-start=0x6000",
                                   image: SweepFirmware.gbl(tags: [SweepFirmware.gblApplicationTag(version: 2),
                                                                  (0xFD03_03FD, SweepFirmware.u32(0) + SweepFirmware.payload(size: 4_000))])),
            truth: .unchanged,
            behaviour: "program data over the bootloader and the AppLoader refused (0x87) before it is written: the "
                + "application boots"),
        DeviceBehaviourRow(
            subject: MatrixSubject(name: "silabs-ota unmet version dependency", profile: "silabs-ota",
                                   device: "silabs-ota?mtu=247&version-dependency=checked&app-version=0",
                                   image: SweepFirmware.gbl(tags: [(0x76A6_17EB, [0x01, 0x06, 0, 0] + SweepFirmware.u32(1)),
                                                                  SweepFirmware.gblApplicationTag(version: 2),
                                                                  (0xFD03_03FD, SweepFirmware.u32(0x6000) + SweepFirmware.payload(size: 4_000))])),
            truth: .unchanged,
            behaviour: "application version 0 does not meet 'application >= 1' (parser_parseVersionDependency): 0x84 "
                + "before any program data, the application boots"),
    ]
}

extension SweepFirmware {
    /// A GBL3 file: the header tag, `tags` in order, the end tag with its CRC-32, 0xFF padding to
    /// 4 bytes (as Commander pads); for files no `GBLBuilder` option makes (other tags, other
    /// program tags or addresses).
    public static func gbl(tags: [(id: UInt32, body: [UInt8])]) -> FlashImage {
        var writer = ByteWriter()
        for (id, body) in [(0x03A6_17EB, u32(0x0300_0000) + u32(0))] + tags {
            writer.append(id, endianness: .little)
            writer.append(UInt32(body.count), endianness: .little)
            writer.append(bytes: body)
        }
        writer.append(UInt32(0xFC04_04FC), endianness: .little)
        writer.append(UInt32(4), endianness: .little)
        writer.append(crc32(writer.bytes), endianness: .little)
        let bytes = writer.bytes + Array(repeating: 0xFF, count: (4 - writer.bytes.count % 4) % 4)
        var image = FlashImage(name: "application", version: "", data: bytes)
        if let read = try? GBLImageFormat.read(bytes, path: "behaviour.gbl") {
            image.version = read.version
            image.info = read.values
        }
        return image
    }

    /// The application tag of a Bluetooth application at `version` (Commander's other defaults).
    public static func gblApplicationTag(version: UInt32) -> (id: UInt32, body: [UInt8]) {
        (0xF40A_0AF4, u32(GBLBuilder.bluetoothApplication) + u32(version) + u32(0) + Array(repeating: 0, count: 16))
    }

    /// CRC-32 (zlib's: reflected 0xEDB88320, init and final XOR 0xFFFFFFFF), as GBL's end tag holds it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    static func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
