#if canImport(Glibc)
import Glibc
#endif

/// A serial line speed that termios can set: one of Linux's standard rates, 50 to 4,000,000
/// baud (`B115200`, `B921600`, `B1000000`, ...). Other rates need the termios2 `BOTHER`
/// interface, which is not used here: they are refused, naming the nearest standard rates.
public struct BaudRate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Bits per second: 115200.
    public let bitsPerSecond: Int

    /// The rate of `bitsPerSecond`.
    /// - Throws: when it is not a standard rate, with the nearest ones.
    public init(_ bitsPerSecond: Int) throws(WireSettingError) {
        guard Self.speeds[bitsPerSecond] != nil else {
            let below = Self.standardRates.last { $0 < bitsPerSecond }
            let above = Self.standardRates.first { $0 > bitsPerSecond }
            let nearest = [below, above].compactMap { $0 }.map(String.init).joined(separator: " or ")
            throw WireSettingError(setting: "baud rate", value: String(bitsPerSecond),
                                   detail: "not a standard rate termios can set; the nearest are \(nearest) "
                                       + "(standard rates: \(Self.standardRates.map(String.init).joined(separator: ", ")))")
        }
        self.bitsPerSecond = bitsPerSecond
    }

    /// The rate written as text: `115200`.
    /// - Throws: when it is not a number, or not a standard rate.
    public init(parsing text: String) throws(WireSettingError) {
        guard let value = Int(text) else {
            throw WireSettingError(setting: "baud rate", value: text,
                                   detail: "not a number; write bits per second, e.g. 115200 or 1000000")
        }
        try self.init(value)
    }

    private init(standard bitsPerSecond: Int) { self.bitsPerSecond = bitsPerSecond }

    /// 9600 baud.
    public static let b9600 = BaudRate(standard: 9600)
    /// 19200 baud.
    public static let b19200 = BaudRate(standard: 19200)
    /// 38400 baud.
    public static let b38400 = BaudRate(standard: 38400)
    /// 57600 baud.
    public static let b57600 = BaudRate(standard: 57600)
    /// 115200 baud: the usual console and MCUboot serial recovery rate.
    public static let b115200 = BaudRate(standard: 115_200)
    /// 230400 baud.
    public static let b230400 = BaudRate(standard: 230_400)
    /// 460800 baud.
    public static let b460800 = BaudRate(standard: 460_800)
    /// 921600 baud.
    public static let b921600 = BaudRate(standard: 921_600)
    /// 1000000 baud (nRF52 UARTE's 1M setting).
    public static let b1000000 = BaudRate(standard: 1_000_000)
    /// 2000000 baud.
    public static let b2000000 = BaudRate(standard: 2_000_000)
    /// 3000000 baud.
    public static let b3000000 = BaudRate(standard: 3_000_000)
    /// 4000000 baud: the highest standard rate.
    public static let b4000000 = BaudRate(standard: 4_000_000)

    /// Every rate termios can set, slowest first.
    public static var standardRates: [Int] { speeds.keys.sorted() }

    /// The termios speed constant (`B115200`).
    package var speed: speed_t { Self.speeds[bitsPerSecond]! }

    /// The rate a termios speed constant stands for.
    package static func bitsPerSecond(of speed: speed_t) -> Int? {
        speeds.first { $0.value == speed }?.key
    }

    private static let speeds: [Int: speed_t] = [
        50: speed_t(B50), 75: speed_t(B75), 110: speed_t(B110), 134: speed_t(B134), 150: speed_t(B150),
        200: speed_t(B200), 300: speed_t(B300), 600: speed_t(B600), 1200: speed_t(B1200), 1800: speed_t(B1800),
        2400: speed_t(B2400), 4800: speed_t(B4800), 9600: speed_t(B9600), 19200: speed_t(B19200),
        38400: speed_t(B38400), 57600: speed_t(B57600), 115_200: speed_t(B115200), 230_400: speed_t(B230400),
        460_800: speed_t(B460800), 500_000: speed_t(B500000), 576_000: speed_t(B576000),
        921_600: speed_t(B921600), 1_000_000: speed_t(B1000000), 1_152_000: speed_t(B1152000),
        1_500_000: speed_t(B1500000), 2_000_000: speed_t(B2000000), 2_500_000: speed_t(B2500000),
        3_000_000: speed_t(B3000000), 3_500_000: speed_t(B3500000), 4_000_000: speed_t(B4000000),
    ]

    /// Slower first.
    public static func < (lhs: BaudRate, rhs: BaudRate) -> Bool { lhs.bitsPerSecond < rhs.bitsPerSecond }

    /// `115200 baud`.
    public var description: String { "\(bitsPerSecond) baud" }
}
