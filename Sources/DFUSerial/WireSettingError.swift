/// A wire setting that cannot be used: a baud rate termios cannot set, a port selector or a UDP
/// address that does not parse. Says which setting, the value given, and what to write instead.
public struct WireSettingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The setting: `baud rate`, `serial port`, `udp address`.
    public var setting: String
    /// The value as given.
    public var value: String
    /// What is wrong and what to write instead.
    public var detail: String

    /// An error in `setting`, given as `value`.
    public init(setting: String, value: String, detail: String) {
        self.setting = setting
        self.value = value
        self.detail = detail
    }

    /// `baud rate 115201: ...`.
    public var description: String { "\(setting) \(value): \(detail)" }
}
