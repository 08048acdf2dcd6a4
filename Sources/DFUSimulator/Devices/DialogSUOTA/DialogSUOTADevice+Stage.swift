import DFUPackage

/// What `sim:dialog-suota` holds of an image (its `.img` file): running it, set to boot it at the
/// next reset (a bank marked valid that the bootloader would pick), holding it whole in a bank it
/// would not boot, or part of it in the bank a session is writing (marked invalid until the end
/// command, so the bootloader ignores it). A bank marked valid whose code as stored fails the
/// header's CRC-32 (`corrupt-stored`) never boots: unchanged.
extension DialogSUOTADevice: FirmwareStageReporting {
    package func stage(of target: TargetFirmware) -> FirmwareStageReport {
        let running = runningDescription
        if runningImage == target.bytes {
            if isBooting { return FirmwareStageReport(.pending, running + ": rebooting into the new image") }
            return FirmwareStageReport(.installed, running)
        }
        let files = bankFiles
        if let bank = files.indices.first(where: { validBanks[$0] && files[$0] == target.bytes }) {
            if nextBootBank == bank {
                return FirmwareStageReport(.pending, running + "; bank \(bank + 1) holds the new image, valid: it boots at the next reset")
            }
            return FirmwareStageReport(.received, running + "; bank \(bank + 1) holds the new image, valid, but the bootloader picks the other bank")
        }
        if let bank = files.indices.first(where: { validBanks[$0] && files[$0] != target.bytes
                                                    && files[$0].map { Array($0.prefix(SUOTAImageHeader.size)) }
                                                    == Array(target.bytes.prefix(SUOTAImageHeader.size)) }),
           nextBootBank != bank {
            return FirmwareStageReport(.unchanged, running + "; bank \(bank + 1) holds the new image marked valid, but its code "
                                           + "as stored fails the header's CRC-32: the bootloader boots the other bank")
        }
        if let bank = sessionBank, let held = files[bank], !validBanks[bank] {
            if held == target.bytes {
                return FirmwareStageReport(.unchanged, running + "; bank \(bank + 1) holds the whole new image, "
                                               + "not marked valid (no end command): the bootloader ignores it")
            }
            if let partial = target.partial(held) {
                return FirmwareStageReport(.unchanged, running + "; bank \(bank + 1) (not valid) " + partial)
            }
        }
        return FirmwareStageReport(.unchanged, running)
    }

    private var runningDescription: String {
        guard let bank = runningBank, let image = runningImage,
              let header = try? SUOTAImageHeader(decoding: image) else { return "runs nothing (no bootable bank)" }
        return "runs \(header.version.isEmpty ? "an image" : header.version) from bank \(bank + 1)"
    }
}
