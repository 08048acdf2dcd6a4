#if canImport(Glibc)
import Glibc
#endif

/// A C `errno` value, as swift-system models it: an open struct with the codes this module
/// names, so an unexpected code is still printed ("errno 123"), never a crash.
public struct SystemErrno: RawRepresentable, Error, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`, read right after a failed call.
    public static var current: SystemErrno { SystemErrno(rawValue: errno) }

    public static let operationNotPermitted = SystemErrno(rawValue: EPERM)
    public static let interrupted = SystemErrno(rawValue: EINTR)
    public static let ioError = SystemErrno(rawValue: EIO)
    public static let badFileDescriptor = SystemErrno(rawValue: EBADF)
    public static let wouldBlock = SystemErrno(rawValue: EAGAIN)
    public static let permissionDenied = SystemErrno(rawValue: EACCES)
    public static let busy = SystemErrno(rawValue: EBUSY)
    public static let noDevice = SystemErrno(rawValue: ENODEV)
    public static let invalidArgument = SystemErrno(rawValue: EINVAL)
    public static let brokenPipe = SystemErrno(rawValue: EPIPE)
    public static let protocolNotAvailable = SystemErrno(rawValue: ENOPROTOOPT)
    public static let addressFamilyNotSupported = SystemErrno(rawValue: EAFNOSUPPORT)
    public static let networkDown = SystemErrno(rawValue: ENETDOWN)
    public static let connectionAborted = SystemErrno(rawValue: ECONNABORTED)
    public static let connectionReset = SystemErrno(rawValue: ECONNRESET)
    public static let notConnected = SystemErrno(rawValue: ENOTCONN)
    public static let timedOut = SystemErrno(rawValue: ETIMEDOUT)
    public static let connectionRefused = SystemErrno(rawValue: ECONNREFUSED)
    public static let hostDown = SystemErrno(rawValue: EHOSTDOWN)
    public static let hostUnreachable = SystemErrno(rawValue: EHOSTUNREACH)
    /// What a blocking L2CAP connect(2) returns when SO_SNDTIMEO expires first (the kernel's
    /// bt_sock_wait_state), not only for non-blocking sockets.
    public static let inProgress = SystemErrno(rawValue: EINPROGRESS)
    public static let notSupported = SystemErrno(rawValue: EOPNOTSUPP)
    public static let rfKilled = SystemErrno(rawValue: ERFKILL)

    /// The C name ("EAFNOSUPPORT"), or "errno N" for codes not named here.
    public var name: String {
        let names: [Int32: String] = [
            EPERM: "EPERM", EINTR: "EINTR", EIO: "EIO", EBADF: "EBADF", EAGAIN: "EAGAIN", EACCES: "EACCES",
            EBUSY: "EBUSY", ENODEV: "ENODEV", EINVAL: "EINVAL", EPIPE: "EPIPE", ENOPROTOOPT: "ENOPROTOOPT",
            EAFNOSUPPORT: "EAFNOSUPPORT", ENETDOWN: "ENETDOWN", ECONNABORTED: "ECONNABORTED",
            ECONNRESET: "ECONNRESET", ENOTCONN: "ENOTCONN", ETIMEDOUT: "ETIMEDOUT", ECONNREFUSED: "ECONNREFUSED",
            EHOSTDOWN: "EHOSTDOWN", EHOSTUNREACH: "EHOSTUNREACH", EINPROGRESS: "EINPROGRESS",
            EOPNOTSUPP: "EOPNOTSUPP", ERFKILL: "ERFKILL",
        ]
        return names[rawValue] ?? "errno \(rawValue)"
    }

    /// strerror(3): "Connection refused".
    public var message: String { String(cString: strerror(rawValue)) }

    /// "Connection refused (ECONNREFUSED)".
    public var description: String { "\(message) (\(name))" }
}
