/// What a simulated Telink device runs: the image and the Firmware Revision String (Device
/// Information 0x2A26) it reports.
///
/// A real firmware reports a version compiled into it; a Telink image has no header field for
/// it (research/telink-ota.md section 4). The simulator's convention: the text after the first
/// `FWREV=` in the image, up to a NUL or a non-printable byte, is the revision the image reports
/// once it runs (the test images and `firmware-samples/make-telink-samples.py` put one there);
/// an image without one reports "unknown".
public struct TelinkSimulatedFirmware: Sendable, Equatable {
    static let revisionTag = Array("FWREV=".utf8)

    /// The image; nil for the factory image the device starts with.
    public var image: [UInt8]?
    /// The Firmware Revision String it reports.
    public var revision: String

    /// Firmware running `image` (nil: the factory image) that reports `revision`.
    public init(image: [UInt8]?, revision: String) {
        self.image = image
        self.revision = revision
    }

    /// The firmware an image is once it runs.
    public init(running image: [UInt8]) {
        self.init(image: image, revision: Self.revision(in: image) ?? "unknown")
    }

    /// The revision an image carries after `FWREV=`, if any.
    public static func revision(in image: [UInt8]) -> String? {
        let tag = revisionTag
        guard image.count > tag.count else { return nil }
        for start in 0...(image.count - tag.count)
        where image[start] == tag[0] && Array(image[start..<start + tag.count]) == tag {
            let text = image[(start + tag.count)...].prefix { $0 >= 0x20 && $0 < 0x7F }
            return String(decoding: text, as: UTF8.self)
        }
        return nil
    }
}
