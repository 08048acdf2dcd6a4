import DFUGATT

/// A characteristic bound for writing, once per connection: what discovery found on the device
/// (its handle), how to write it, and the profile's name for it (for messages).
public struct WriteTarget: Sendable, Hashable {
    /// The profile's name of the characteristic ("control", "packet").
    public var role: String
    /// The characteristic as discovered on the device.
    public var characteristic: GATTCharacteristic
    /// How it is written.
    public var type: GATTWriteType
    /// At least this long between two writes to it (the profile's `write-interval`).
    package var minimumInterval: Duration?

    /// A target for writes to `characteristic`, called `role` in the profile.
    public init(role: String, characteristic: GATTCharacteristic, type: GATTWriteType, minimumInterval: Duration? = nil) {
        self.role = role
        self.characteristic = characteristic
        self.type = type
        self.minimumInterval = minimumInterval
    }
}
