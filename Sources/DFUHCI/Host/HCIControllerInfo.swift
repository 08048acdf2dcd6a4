/// What the controller said about itself during start-up.
public struct HCIControllerInfo: Sendable, Hashable {
    public var version: ReadLocalVersionCommand.ReturnParameters
    /// The largest ACL payload the host may send (LE buffers, or the shared ones).
    public var aclPacketLength: Int
    /// How many ACL packets may be in the controller at once: the host's credits.
    public var aclPacketCount: Int
    public var features: LEFeatures

    public init(version: ReadLocalVersionCommand.ReturnParameters, aclPacketLength: Int, aclPacketCount: Int,
                features: LEFeatures) {
        self.version = version
        self.aclPacketLength = aclPacketLength
        self.aclPacketCount = aclPacketCount
        self.features = features
    }
}
