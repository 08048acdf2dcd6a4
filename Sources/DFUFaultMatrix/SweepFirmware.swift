import DFUBytes
import DFUEngine
import DFUPackage
import DFUSimulator

/// Images of any size for each protocol, shaped as its vendor's tools shape them, for boundary
/// sweeps and the fault matrix: raw bytes (vendor), an application with an unsigned Secure DFU
/// init packet (what `nrfutil pkg generate` makes without a key), an application with a legacy
/// init packet (`adafruit-nrfutil dfu genpkg`), an MCUboot image (`imgtool sign` without a key), a
/// Dialog SUOTA image (`mkimage single`), a Telink SDK image (its CRC-32 trailer).
/// Payloads are deterministic pseudo-random bytes.
public enum SweepFirmware {
    /// `size` deterministic bytes (a 64-bit LCG), different per seed.
    public static func payload(size: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1
        return (0..<size).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// A TI OAD image of `size` bytes (at least 56) as `oad_image_tool` lays it out for a CC26x2
    /// application: header, contiguous payload segment, code, the CRC-32 of bytes 12 to the end.
    public static func tiOAD(size: Int, seed: UInt64 = 1, softwareVersion: String = "0002") -> FlashImage {
        FlashImage(name: "application", version: softwareVersion,
                   data: TIOADImageBuilder.image(code: payload(size: max(0, size - 56), seed: seed),
                                                 softwareVersion: softwareVersion))
    }

    public static func vendor(size: Int, seed: UInt64 = 1) -> FlashImage {
        FlashImage(name: "application", version: "1.0.0", data: payload(size: size, seed: seed))
    }

    /// An application of `size` bytes with the init packet `nrfutil pkg generate
    /// --application ... --hw-version 52 --sd-req 0xFFFE` makes without a key: Packet { Command
    /// { op_code INIT, InitCommand { fw_version, hw_version 52, sd_req, type APPLICATION,
    /// app_size, hash { SHA256, SHA-256 of the image byte-reversed } } } } (dfu-cc.proto).
    public static func nordicSecure(size: Int, seed: UInt64 = 1, firmwareVersion: UInt32 = 1) -> FlashImage {
        let data = payload(size: size, seed: seed)
        let hash = ProtobufWriter.varintField(1, 3) + ProtobufWriter.bytesField(2, SHA256.digest(data).reversed())
        let initCommand = ProtobufWriter.varintField(1, UInt64(firmwareVersion)) + ProtobufWriter.varintField(2, 52)
            + ProtobufWriter.bytesField(3, ProtobufWriter.varint(0xFFFE)) + ProtobufWriter.varintField(4, 0)
            + ProtobufWriter.varintField(7, UInt64(size)) + ProtobufWriter.bytesField(8, hash)
        let command = ProtobufWriter.varintField(1, 1) + ProtobufWriter.bytesField(2, initCommand)
        return FlashImage(name: "application", version: "\(firmwareVersion)", data: data,
                          initPacket: ProtobufWriter.bytesField(1, command))
    }

    /// An application of `size` bytes with the legacy init packet `adafruit-nrfutil dfu genpkg
    /// --dev-type 0x0052 --sd-req 0xFFFE` makes: device type u16, revision u16, application
    /// version u32, one sd_req u16, then the image's CRC-16/CCITT-FALSE (all little-endian).
    public static func nordicLegacy(size: Int, seed: UInt64 = 1) -> FlashImage {
        let data = payload(size: size, seed: seed)
        var writer = ByteWriter()
        writer.append(0x0052, width: 2, endianness: .little)
        writer.append(0xFFFF, width: 2, endianness: .little)
        writer.append(0xFFFF_FFFF, width: 4, endianness: .little)
        writer.append(1, width: 2, endianness: .little)
        writer.append(0xFFFE, width: 2, endianness: .little)
        writer.append(UInt64(CRC16CCITTFalse.checksum(data)), width: 2, endianness: .little)
        return FlashImage(name: "application", version: "", data: data, initPacket: writer.bytes)
    }

    /// A Renesas/Dialog SUOTA image as `mkimage single` makes it: the 64-byte "pQ" header
    /// (version `version`, the CRC-32 of the code), then `codeSize` bytes of code.
    public static func suota(codeSize: Int, seed: UInt64 = 1, version: String = "1.0.0") -> FlashImage {
        let code = payload(size: codeSize, seed: seed)
        let header = SUOTAImageHeader(code: code, version: version, timestamp: 1_717_243_200)
        return FlashImage(name: "application", version: version, data: header.encoded + code)
    }

    /// An MCUboot image (version 2.0.0) whose payload is `payloadSize` bytes: header, payload,
    /// SHA256 TLV; the image the device lists is known by that hash.
    public static func mcuboot(payloadSize: Int, seed: UInt64 = 1) -> FlashImage {
        let bytes = SimulatedMCUbootImage.make(payload: payload(size: payloadSize, seed: seed),
                                               version: .init(major: 2, minor: 0, revision: 0, build: 0))
        let slot = SMPSlotImage(bytes: bytes)
        return FlashImage(name: "image-0", version: "2.0.0", data: bytes, imageHash: slot?.hash ?? [])
    }

    /// A Silicon Labs GBL file as Simplicity Commander lays it out (`GBLBuilder`) carrying
    /// `programSize` bytes of application (version 2): the AppLoader checks its end-tag CRC-32.
    public static func gbl(programSize: Int, seed: UInt64 = 1) -> FlashImage {
        let bytes = GBLBuilder(version: 2).build(program: payload(size: programSize, seed: seed))
        guard let read = try? GBLImageFormat.read(bytes, path: "sweep.gbl") else {
            preconditionFailure("GBLBuilder wrote a file GBLImageFormat cannot read")
        }
        var image = FlashImage(name: "application", version: read.version, data: bytes)
        image.info = read.values
        return image
    }

    /// A Telink BLE SDK image of `body` bytes plus, with `trailer`, its CRC-32 (then `body` is a
    /// multiple of 16: the SDK's firmware check wants 16n + 4 bytes): the KNLT mark at 8, the
    /// size at 0x18 (research/telink-ota.md section 4), and "FWREV=<version>" at 0x20, the
    /// revision `sim:telink-ota` reports once it runs the image.
    public static func telink(body: Int, trailer: Bool = true, version: String = "2.0.0", seed: UInt64 = 1) -> FlashImage {
        let bytes = TelinkImageLayout.build(code: payload(size: body, seed: seed), version: version, trailer: trailer)
        return FlashImage(name: "application", version: version, data: bytes)
    }
}
