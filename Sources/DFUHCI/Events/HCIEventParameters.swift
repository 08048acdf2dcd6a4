/// The parameters of one HCI event, encoded and decoded side by side.
package protocol HCIEventParameters: Sendable, Hashable {
    static var code: UInt8 { get }
    /// The spec's name, e.g. "Disconnection Complete".
    static var name: String { get }
    init(parameters: [UInt8]) throws(HCIDecodeError)
    var parameters: [UInt8] { get }
}

/// The parameters of one LE Meta subevent (after the subevent code).
package protocol LEMetaSubeventParameters: Sendable, Hashable {
    static var subeventCode: UInt8 { get }
    static var name: String { get }
    init(parameters: [UInt8]) throws(HCIDecodeError)
    var parameters: [UInt8] { get }
}
