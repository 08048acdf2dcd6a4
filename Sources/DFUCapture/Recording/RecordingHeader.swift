import DFUGATT

/// The first line of a DFUKit session recording (`--record`): which format and version, and
/// what the session was (who recorded it, the profile, the device string, the package and its
/// images, when it started).
public struct RecordingHeader: Sendable, Hashable {
    /// The `format` every recording's header names.
    public static let formatName = "dfukit-recording"
    /// The format version this DFUKit writes, and the newest it reads.
    public static let currentVersion = 1

    /// One file of the session by name and content: the package, or an image in it.
    public struct File: Sendable, Hashable {
        /// The package's path as given, or the image's name in its package (`application`).
        public var name: String
        /// Its size in bytes, where known.
        public var size: Int?
        /// Its SHA-256, lowercase hex; an image's is also the name of its blob line.
        public var sha256: String

        /// A file `name` of `size` bytes with this SHA-256.
        public init(name: String, size: Int? = nil, sha256: String) {
            self.name = name
            self.size = size
            self.sha256 = sha256
        }
    }

    /// The format version of the file.
    public var version: Int
    /// The DFUKit that recorded it ("0.1.0"), where it said.
    public var dfukitVersion: String?
    /// Wall-clock time the recording started, ISO 8601 in UTC ("2026-12-02T16:40:00.123Z").
    public var startedAt: String
    /// The profile's name.
    public var profile: String?
    /// The device string as given (`sim:vendor-ctrlpt`, `hci:usb:0/C0:FF:EE:00:00:01`).
    public var device: String?
    /// The transport's own description (`sim:vendor-ctrlpt`).
    public var transport: String?
    /// What carries the link, where known before connecting.
    public var medium: LinkMedium?
    /// The firmware package, when the session sends one.
    public var package: File?
    /// The package's images, in send order.
    public var images: [File]

    /// A header of the current version.
    public init(version: Int = RecordingHeader.currentVersion, dfukitVersion: String? = nil, startedAt: String,
                profile: String? = nil, device: String? = nil, transport: String? = nil, medium: LinkMedium? = nil,
                package: File? = nil, images: [File] = []) {
        self.version = version
        self.dfukitVersion = dfukitVersion
        self.startedAt = startedAt
        self.profile = profile
        self.device = device
        self.transport = transport
        self.medium = medium
        self.package = package
        self.images = images
    }

    /// The header as its line's JSON text (without the line break).
    var json: String {
        var line = JSONLine()
        line.string("format", Self.formatName)
        line.int("version", version)
        line.string("dfukit", dfukitVersion)
        line.string("started_at", startedAt)
        line.string("profile", profile)
        line.string("device", device)
        line.string("transport", transport)
        line.string("medium", medium?.rawValue)
        if let package { line.raw("package", Self.json(package)) }
        line.raw("images", JSONLine.array(images.map(Self.json)))
        return line.json
    }

    private static func json(_ file: File) -> String {
        var line = JSONLine()
        line.string("name", file.name)
        line.int("size", file.size)
        line.string("sha256", file.sha256)
        return line.json
    }
}
