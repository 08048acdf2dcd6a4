/// The ATT error codes Silicon Labs' AppLoader answers a write with (AN1086 "OTA Error Codes",
/// table "AppLoader Result Codes"; the same texts in Simplicity Connect's `ErrorCodes.kt`). Open:
/// any code prints.
package struct AppLoaderError: RawRepresentable, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// CRC check failed, or signature failure (if enabled).
    package static let crcError = Self(rawValue: 0x80)
    /// The OTA was not started (0x00 to OTA Control) and the client sends data or ends it.
    package static let wrongState = Self(rawValue: 0x81)
    /// The AppLoader ran out of buffer space.
    package static let buffersFull = Self(rawValue: 0x82)
    /// The image does not fit into flash, or overlaps the AppLoader.
    package static let imageTooBig = Self(rawValue: 0x83)
    /// GBL file parsing failed (not a GBL file, a tag the bootloader does not take...).
    package static let notSupported = Self(rawValue: 0x84)
    /// The bootloader cannot erase or write flash.
    package static let bootloader = Self(rawValue: 0x85)
    /// The new application would overlap the AppLoader (AN1086 0x87): program data below the
    /// application area (`app-start`).
    package static let applicationOverlapsAppLoader = Self(rawValue: 0x87)
}
