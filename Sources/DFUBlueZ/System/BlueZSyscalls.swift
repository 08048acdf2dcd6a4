import DFUGATT

/// Every syscall (and libbluetooth call) the BlueZ transport makes, behind one seam so tests
/// can record and fake them (swift-system's Mocking style). `SystemBlueZSyscalls` calls the
/// kernel; the test target has a recording fake.
///
/// Each call returns its result or the `errno` it failed with; none retries on EINTR (the
/// callers do). Socket addresses travel as their C bytes (`L2CAPSocketAddress.bytes`,
/// `HCISocketAddress.bytes`) so tests can compare them byte for byte.
public protocol BlueZSyscalls: Sendable {
    /// socket(2).
    func socket(domain: Int32, type: Int32, protocol: Int32) -> Result<Int32, SystemErrno>
    /// bind(2) with a `struct sockaddr_*` given as bytes.
    func bind(_ socket: Int32, address: [UInt8]) -> Result<Void, SystemErrno>
    /// connect(2) (blocking) with a `struct sockaddr_*` given as bytes.
    func connect(_ socket: Int32, address: [UInt8]) -> Result<Void, SystemErrno>
    /// setsockopt(2) with the option value as bytes.
    func setSocketOption(_ socket: Int32, level: Int32, option: Int32, value: [UInt8]) -> Result<Void, SystemErrno>
    /// getsockopt(2): up to `length` bytes of the option value.
    func getSocketOption(_ socket: Int32, level: Int32, option: Int32, length: Int) -> Result<[UInt8], SystemErrno>
    /// read(2): one datagram / packet of at most `maximumLength` bytes; empty at end of stream.
    func read(_ descriptor: Int32, maximumLength: Int) -> Result<[UInt8], SystemErrno>
    /// write(2): the number of bytes written.
    func write(_ descriptor: Int32, bytes: [UInt8]) -> Result<Int, SystemErrno>
    /// poll(2) for POLLIN on each descriptor: the `revents` of each, in order. A negative
    /// timeout waits forever.
    func poll(_ descriptors: [Int32], timeoutMilliseconds: Int32) -> Result<[Int16], SystemErrno>
    /// close(2).
    func close(_ descriptor: Int32)
    /// pipe2(2) with O_CLOEXEC: wakes a reader thread blocked in poll.
    func pipe() -> Result<(read: Int32, write: Int32), SystemErrno>
    /// ioctl(HCIGETDEVINFO) on an HCI socket: the adapter's address and whether it is up
    /// (ENODEV when there is no such adapter).
    func adapterInfo(_ socket: Int32, index: UInt16) -> Result<BlueZAdapterInfo, SystemErrno>
}

/// What HCIGETDEVINFO says about an adapter.
public struct BlueZAdapterInfo: Sendable, Hashable {
    /// The adapter's index: N of `hciN`.
    public var index: UInt16
    /// "hci0".
    public var name: String
    /// The adapter's own address.
    public var address: DeviceAddress
    /// The HCI_UP flag.
    package var isUp: Bool

    /// Information on adapter `index`.
    public init(index: UInt16, name: String, address: DeviceAddress, isUp: Bool) {
        self.index = index
        self.name = name
        self.address = address
        self.isUp = isUp
    }
}

/// Constants of the Linux Bluetooth socket API (from <bluetooth/*.h>), spelled out so the
/// logic and its tests need not import the C module.
public enum BlueZConstants {
    package static let addressFamily: Int32 = 31        // AF_BLUETOOTH
    package static let protocolL2CAP: Int32 = 0         // BTPROTO_L2CAP
    package static let protocolHCI: Int32 = 1           // BTPROTO_HCI
    package static let solBluetooth: Int32 = 274        // SOL_BLUETOOTH
    package static let btSecurity: Int32 = 4            // BT_SECURITY
    package static let btReceiveMTU: Int32 = 13         // BT_RCVMTU
    package static let hciChannelRaw: UInt16 = 0        // HCI_CHANNEL_RAW
    package static let hciChannelControl: UInt16 = 3    // HCI_CHANNEL_CONTROL (management)
    package static let attChannelID: UInt16 = 0x0004    // L2CAP CID of ATT on LE
    package static let addressTypeLEPublic: UInt8 = 1   // BDADDR_LE_PUBLIC
    package static let addressTypeLERandom: UInt8 = 2   // BDADDR_LE_RANDOM
}
