/// What the controller said about itself during start-up.
package struct HCIControllerInfo: Sendable, Hashable {
    package var version: ReadLocalVersionCommand.ReturnParameters
    /// The largest ACL payload the host may send (LE buffers, or the shared ones).
    package var aclPacketLength: Int
    /// How many ACL packets may be in the controller at once: the host's credits.
    package var aclPacketCount: Int
    package var features: LEFeatures

    package init(version: ReadLocalVersionCommand.ReturnParameters, aclPacketLength: Int, aclPacketCount: Int,
                features: LEFeatures) {
        self.version = version
        self.aclPacketLength = aclPacketLength
        self.aclPacketCount = aclPacketCount
        self.features = features
    }
}
