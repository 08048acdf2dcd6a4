/// The `manifest.json` of an nRF Connect SDK `dfu_application.zip`, as sysbuild writes it with
/// `scripts/bootloader/generate_zip.py`:
///
/// ```json
/// {"format-version": 1, "time": 1740787200, "name": "...",
///  "files": [{"type": "application", "board": "nrf52840dk/nrf52840", "soc": "nrf52840",
///             "load_address": 49664, "image_index": "0", "slot_index_primary": "1",
///             "slot_index_secondary": "2", "version_MCUBOOT": "1.2.3+4", "size": 41623,
///             "file": "app_update.bin", "modtime": 1740787200}]}
/// ```
///
/// generate_zip.py keeps `key=value` values as strings unless they start with `0x`, so numbers
/// may come as strings (`"image_index": "0"`) or integers; both are read.
public struct NRFConnectManifest: Sendable, Equatable {
    /// The most bytes an image file may have; more is refused as a possible zip bomb.
    package static let maximumImageSize = 32 * 1024 * 1024

    /// `format-version` (0 or 1); `nil` when absent.
    package let formatVersion: Int?
    /// `name`, shown to users to identify the update.
    public let name: String?
    /// `time`, seconds since 1970 when the zip was made.
    public let time: Int64?
    /// The files in send order: ascending `image_index`, then as listed.
    public let files: [NRFConnectManifestFile]

    /// A manifest with these fields.
    public init(formatVersion: Int?, name: String?, time: Int64?, files: [NRFConnectManifestFile]) {
        self.formatVersion = formatVersion
        self.name = name
        self.time = time
        self.files = files.enumerated()
            .sorted { ($0.element.imageIndex, $0.offset) < ($1.element.imageIndex, $1.offset) }
            .map(\.element)
    }
}
