/// One image of an nrfutil `manifest.json`:
/// ```json
/// "softdevice_bootloader": {"bin_file": "sd_bl.bin", "dat_file": "sd_bl.dat",
///                           "info_read_only_metadata": {"bl_size": 6152, "sd_size": 12288}}
/// ```
/// Legacy packages put `sd_size` / `bl_size` in the image itself and add `init_packet_data`.
public struct NordicManifestImage: Sendable, Equatable {
    /// Which image it is (the manifest key).
    public let kind: NordicImageKind
    /// The archive entry with the firmware.
    package let binFile: String
    /// The archive entry with the init packet.
    package let datFile: String
    /// `sd_size` from `info_read_only_metadata` (or the image, in legacy manifests); SD+BL only.
    public let softDeviceSize: Int?
    /// `bl_size` from `info_read_only_metadata` (or the image, in legacy manifests); SD+BL only.
    public let bootloaderSize: Int?
    /// `init_packet_data`, legacy manifests only.
    package let legacyInitPacketData: LegacyInitPacketData?

    /// An image of `kind` in `binFile` with its init packet in `datFile`.
    public init(kind: NordicImageKind, binFile: String, datFile: String, softDeviceSize: Int? = nil,
                bootloaderSize: Int? = nil, legacyInitPacketData: LegacyInitPacketData? = nil) {
        self.kind = kind
        self.binFile = binFile
        self.datFile = datFile
        self.softDeviceSize = softDeviceSize
        self.bootloaderSize = bootloaderSize
        self.legacyInitPacketData = legacyInitPacketData
    }

    /// The manifest key, e.g. `application`.
    public var name: String { kind.rawValue }
}
