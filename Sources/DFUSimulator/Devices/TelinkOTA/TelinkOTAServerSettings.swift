/// How a Telink application configured its OTA server (`sim:telink-ota` keys in brackets).
/// Defaults are the SDK's (`ota_server.c` `blc_ota_initOtaServer_module`, ota.h, research/telink-ota.md).
public struct TelinkOTAServerSettings: Sendable, Equatable {
    /// `fw_check_en`: the image's CRC-32 trailer is checked and its size must be 16n + 4
    /// ("default firmware check is must"; `blc_ota_setOtaFirmwareCheckEnable(0)` turns it off)
    /// [`firmware-check`].
    package var firmwareCheck = true
    /// `FW_MIN_SIZE`: smaller images are refused (`OTA_FW_SIZE_ERR`); 0x4000 in the SDK header of
    /// the same generation as the server [`min-size`].
    package var minimumImageSize = 0x4000
    /// `ota_firmware_max_size`: 252 KiB, the most `blc_ota_setFirmwareSizeAndBootAddress` allows
    /// with boot address 0x40000.
    package var maximumImageSize = 252 * 1024
    /// `process_timeout_us`: the whole OTA, counted from the start command, default 30 s
    /// (`blc_ota_setOtaProcessTimeout`, 5...1000 s) [`ota-timeout-s`].
    package var processTimeout: Duration = .seconds(30)
    /// `packet_timeout_us`: from one valid data packet to the next, default 5 s
    /// (`blc_ota_setOtaDataPacketTimeout`, 1...20 s) [`packet-timeout-s`].
    package var packetTimeout: Duration = .seconds(5)
    /// `blt_ota_procOtaResultFeedback`: a result that cannot be notified and the link ended
    /// within 4 s is given up on, and the OTA finishes anyway.
    package var feedbackTimeout: Duration = .seconds(4)
    /// Whether the server notifies its result (`06 FF <result> 00`) to a subscribed client before
    /// it ends the link, as `blt_ota_procOtaResultFeedback` does in the B85m/B91 SDKs' ota_server.c
    /// from 2020.06, the refusals and OTA_SUCCESS alike [`result-feedback=1`]. Off by default: an
    /// older server, which keeps no result to notify (the B91 SDK's first OTA stack, ota_stack.h
    /// `ota_service_t`, 2020.08), only ends the link.
    package var resultFeedback = false

    /// The SDK's defaults.
    public init() {}
}
