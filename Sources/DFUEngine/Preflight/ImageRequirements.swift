import DFUProfile

/// What a profile's expressions read of each image that a package may not carry: an init packet
/// (`image.init_packet`, a Nordic package's .dat), an MCUboot hash (`image.hash`), values read
/// from the image's format (`image.info`, a GBL's app_version). A package without them would
/// fail on the device, after connecting.
public enum ImageRequirements {
    /// One message for each image that lacks something the profile reads; empty when it fits.
    public static func problems(_ images: [FlashImage], profile: Profile) -> [String] {
        guard !images.isEmpty else { return ["the package holds no image to flash"] }
        let needs: [(member: String, lacks: (FlashImage) -> Bool, what: String)] = [
            ("init_packet", { $0.initPacket.isEmpty }, "init packet (a Nordic package's .dat)"),
            ("hash", { $0.imageHash.isEmpty }, "MCUboot image hash (an MCUboot image with its SHA256 TLV)"),
            ("info", { $0.info.isEmpty }, "values read from its file format (e.g. a GBL's app_version)"),
        ]
        var problems: [String] = []
        for need in needs {
            guard let used = profile.imageMembersUsed[need.member] else { continue }
            for image in images where need.lacks(image) {
                problems.append("image '\(image.name)' of the package has no \(need.what), which profile "
                                + "'\(profile.name)' uses as image.\(need.member) (\(used)): this package does not fit the profile")
            }
        }
        return problems
    }
}
