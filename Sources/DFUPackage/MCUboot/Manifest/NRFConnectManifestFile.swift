/// One entry of `files[]` in an nRF Connect SDK `dfu_application.zip` manifest: an MCUboot image
/// and where it goes.
public struct NRFConnectManifestFile: Sendable, Equatable {
    /// `file`: the archive entry holding the signed image.
    public let file: String
    /// `image_index`: the MCUboot image number (0 the application, 1 the network core, ...), the
    /// `image` field of an SMP upload. 0 when the manifest has none.
    package let imageIndex: Int
    /// `size` in bytes, when given.
    public let size: Int?
    /// `version_MCUBOOT`, when given and not null.
    public let version: MCUbootImageVersion?
    /// `load_address`, when given.
    package let loadAddress: UInt64?
    /// `type`, e.g. `application`.
    public let type: String?
    package let board: String?
    package let soc: String?
    /// `slot_index_primary` / `slot_index_secondary`: MCUboot's slot numbers for the image.
    package let primarySlot: Int?
    package let secondarySlot: Int?

    /// An entry for the image in `file`; the optional fields are nil unless given.
    public init(file: String, imageIndex: Int, size: Int? = nil, version: MCUbootImageVersion? = nil,
                loadAddress: UInt64? = nil, type: String? = nil, board: String? = nil, soc: String? = nil,
                primarySlot: Int? = nil, secondarySlot: Int? = nil) {
        self.file = file
        self.imageIndex = imageIndex
        self.size = size
        self.version = version
        self.loadAddress = loadAddress
        self.type = type
        self.board = board
        self.soc = soc
        self.primarySlot = primarySlot
        self.secondarySlot = secondarySlot
    }

    /// The image's name in DFUKit reports: `image-0`, `image-1`, ...
    package var imageName: String { MCUbootImage.imageName(index: imageIndex) }
}
