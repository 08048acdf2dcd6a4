/// One `InitCommand.boot_validation` entry in dfu-cc.proto:
/// `BootValidation { type = 1; bytes = 2; }` (SDK 15.1+).
public struct NordicBootValidation: Sendable, Equatable {
    /// How the bootloader validates the image at boot.
    public let type: NordicValidationType
    /// What the check compares against (a digest or signature); empty for `NO_VALIDATION` and
    /// `VALIDATE_GENERATED_CRC`.
    public let bytes: [UInt8]

    /// An entry of `type` comparing against `bytes`.
    public init(type: NordicValidationType, bytes: [UInt8]) {
        self.type = type
        self.bytes = bytes
    }
}
