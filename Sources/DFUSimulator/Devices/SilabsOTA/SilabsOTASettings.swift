/// What `sim:silabs-ota?...` can change beyond timing and faults (keys `app-version`,
/// `end-answer`, `compression`, `app-start`, `version-dependency`). The defaults keep the
/// simulator as it was before these keys: an AppLoader that takes every program tag anywhere and
/// skips version dependencies; the keys make it as strict as a shipped AppLoader (AN1086, UG266,
/// gecko_sdk 4.4.1 `btl_gbl_parser.c`).
package struct SilabsOTASettings: Sendable, Equatable {
    /// Whether the AppLoader's answer to OTA Control 0x03 reaches the client.
    package enum EndAnswer: String, Sendable, Equatable, CaseIterable {
        case sent
        /// Every 0x03 is processed (the image verified or refused) and then the link drops before
        /// its answer goes out, every time: the client never learns the result. A disconnect
        /// resets the device (`btl_apploader_common.c` returns from its main loop, `btl_main.c`
        /// resets), so a verified image boots as the new application.
        case lost
    }

    /// The factory application's version (`ApplicationProperties_t.app.version`), read from the
    /// Application Version characteristic in the application and in the AppLoader.
    package var applicationVersion: UInt32 = 0x0001_0001
    package var endAnswer = EndAnswer.sent
    /// `compression=refused`: a bootloader built without the LZ4/LZMA components refuses those
    /// program tags (0x84) before any program data is written.
    package var acceptsCompression = true
    /// `app-start=ADDRESS`: program data below it (at 0: over the bootloader and the AppLoader) is
    /// refused (0x87) before it is written; nil: not checked.
    package var applicationStart: UInt32?
    /// `version-dependency=checked`: version dependency tags are evaluated against the running
    /// application's and the bootloader's versions; an unmet one is refused (0x84) before any
    /// program data (the tag's order comes before every program tag).
    package var checksVersionDependencies = false

    /// The defaults (the simulator as it was).
    package init() {}
}
