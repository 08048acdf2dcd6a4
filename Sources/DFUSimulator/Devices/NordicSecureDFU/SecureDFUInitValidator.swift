import DFUBytes
import DFUPackage

/// An init packet the bootloader accepted: what it needs to receive and check the firmware.
struct SecureDFUAcceptedInit: Equatable, Sendable {
    var packet: NordicInitPacket
    /// Bytes of firmware the init packet announces (app_size, or sd_size + bl_size).
    var firmwareSize: Int

    var type: NordicFirmwareType { packet.initCommand.type ?? .application }
}

/// Prevalidation of an init packet when the command object is executed, in the order of
/// nrf_dfu_validation.c (`stored_init_cmd_decode`, `nrf_dfu_validation_prevalidate`,
/// `update_data_size_get`, `update_data_addr_get`) and nrf_dfu_ver_validation.c
/// (`nrf_dfu_ver_validation_check`). The decoding itself is DFUPackage's `NordicInitPacket`.
struct SecureDFUInitValidator: Sendable {
    /// DER SubjectPublicKeyInfo of the ECDSA P-256 key; nil: the bootloader checks no signature.
    var publicKeyDER: [UInt8]?
    var hardwareVersion: UInt32
    /// The FWID of the SoftDevice on the device; nil: `sd_req` is not checked.
    var softDeviceID: UInt32?
    /// Largest image the bank can take (`nrf_dfu_cache_prepare`).
    var capacity: Int

    /// Versions the device has installed (`s_dfu_settings.app_version`, `bootloader_version`).
    struct InstalledVersions: Equatable, Sendable {
        var application: UInt32 = 0
        var bootloader: UInt32 = 0
    }

    /// Why an init packet was refused. Only a packet that passed decoding but failed a check
    /// resets the transfer (`dfu_progress_reset`); an undecodable one is left as it is.
    enum Refusal: Error, Equatable {
        case undecodable
        case rejected(SecureDFUOutcome)

        var outcome: SecureDFUOutcome {
            switch self {
            case .undecodable: return .result(.invalidObject)
            case let .rejected(outcome): return outcome
            }
        }
    }

    func validate(_ bytes: [UInt8], installed: InstalledVersions) -> Result<SecureDFUAcceptedInit, Refusal> {
        // "Failed to decode init packet" -> NRF_DFU_RES_CODE_INVALID_OBJECT.
        guard let packet = try? NordicInitPacket(decoding: bytes) else { return .failure(.undecodable) }
        let command = packet.initCommand
        if let failure = signatureFailure(packet) { return .failure(.rejected(failure)) }
        if let failure = versionFailure(command, installed: installed) { return .failure(.rejected(.extended(failure))) }
        let size = Self.firmwareSize(command)
        guard size > 0 else { return .failure(.rejected(.extended(.initCommandInvalid))) }
        guard size <= capacity else { return .failure(.rejected(.result(.insufficientResources))) }
        return .success(SecureDFUAcceptedInit(packet: packet, firmwareSize: size))
    }

    /// `update_data_size_get`: app_size for an application, else sd_size + bl_size.
    static func firmwareSize(_ command: NordicInitCommand) -> Int {
        let type = command.type ?? .application
        if type == .application || type == .externalApplication { return Int(command.applicationSize ?? 0) }
        return (type.rawValue & 1 != 0 ? Int(command.softDeviceSize ?? 0) : 0)
            + (type.rawValue & 2 != 0 ? Int(command.bootloaderSize ?? 0) : 0)
    }

    /// `nrf_dfu_validation_signature_check`.
    private func signatureFailure(_ packet: NordicInitPacket) -> SecureDFUOutcome? {
        guard let publicKeyDER else { return nil }
        guard packet.isSignedCommand, let signature = packet.signature else { return .extended(.signatureMissing) }
        guard (packet.signatureType ?? .ecdsaP256SHA256) == .ecdsaP256SHA256 else {
            return .extended(.wrongSignatureType)
        }
        guard signature.count == 64 else { return .result(.operationFailed) }
        // A signature that does not verify is NRF_DFU_RES_CODE_INVALID_OBJECT, not an extended error.
        return packet.verifySignature(publicKeyDER: publicKeyDER) ? nil : .result(.invalidObject)
    }

    /// `nrf_dfu_ver_validation_check` with downgrade prevention on and NRF_DFU_DEBUG off.
    private func versionFailure(_ command: NordicInitCommand,
                                installed: InstalledVersions) -> SecureDFUExtendedError? {
        let knownTypes: [NordicFirmwareType] = [.application, .softDevice, .bootloader, .softDeviceBootloader]
        guard let type = command.type, knownTypes.contains(type) else { return .initCommandInvalid }
        guard command.hash?.type == .sha256 else { return .wrongHashType }
        guard let hardware = command.hardwareVersion else { return .initCommandInvalid }
        guard hardware == hardwareVersion else { return .hardwareVersionFailure }
        if let softDeviceID, let first = command.softDeviceRequirements.first, first != 0,
           !command.softDeviceRequirements.contains(softDeviceID),
           !command.softDeviceRequirements.contains(0xFFFE) {
            return .softDeviceVersionFailure
        }
        guard let version = command.firmwareVersion else {
            // fw_version is optional for a SoftDevice only.
            return type == .softDevice ? nil : .initCommandInvalid
        }
        switch type {
        case .application, .softDevice:
            return version >= installed.application ? nil : .firmwareVersionFailure
        default:
            return version > installed.bootloader ? nil : .firmwareVersionFailure
        }
    }
}
