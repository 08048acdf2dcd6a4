/// A Nordic image's `.dat` as DFUKit understood it.
public enum DecodedInitPacket: Sendable, Equatable {
    /// A Secure DFU (protobuf) init packet.
    case secure(NordicInitPacket)
    /// A legacy (SDK <= 11) init packet.
    case legacy(LegacyInitPacket)
    /// The bytes do not decode; the image must not be flashed.
    case undecodable(NordicInitPacketError)

    /// Decodes `bytes` as the init packet of a package of `format`.
    public init(bytes: [UInt8], format: PackageFormat) {
        do {
            if format == .nordicLegacy {
                self = .legacy(try LegacyInitPacket(decoding: bytes))
            } else {
                self = .secure(try NordicInitPacket(decoding: bytes))
            }
        } catch {
            self = .undecodable(error)
        }
    }
}
