/// One field of a message that differs between what a captured client sent and what DFUKit
/// sends in its place.
public struct FieldDifference: Sendable, Hashable, CustomStringConvertible {
    /// Whether a difference in the field may be legitimate, by what its value is made of in
    /// the profile.
    public enum Variance: String, Sendable, Hashable {
        /// A constant or a parameter: it must be the same.
        case fixed
        /// The request sequence number: any client numbers its requests its own way.
        case sequence
        /// Made from the image, a chunk or a device's answer: the same for the same image,
        /// free for another one.
        case imageDerived = "image-derived"
    }

    /// The message's name in the profile (its command), or the characteristic's for bytes the
    /// profile does not read.
    public var message: String
    /// The field's name, `field 3` for an unnamed one, `cbor key 'off'` inside a CBOR map,
    /// `byte 12` when the profile cannot lay the message out, `length` for the message's size.
    public var field: String
    /// What the captured client sent (printed as the profile reads it).
    public var captured: String
    /// What DFUKit sends.
    public var now: String
    /// What the field is made of.
    public var variance: Variance

    /// "message 'start' field 'size': the capture has 1024 (0x400), DFUKit sends 2048 (0x800)".
    public var description: String {
        "message '\(message)' \(field): the capture has \(captured), DFUKit sends \(now)"
    }
}
