#if canImport(Glibc)
import Glibc
#endif

/// A C `errno` value, as swift-system models it: an open struct with the codes this module
/// names, so an unexpected code is still printed ("errno 123"), never a crash.
public struct SystemErrno: RawRepresentable, Error, Sendable, Hashable, CustomStringConvertible {
    /// The C `errno` value.
    public let rawValue: Int32
    /// The errno with this value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`, read right after a failed call.
    public static var current: SystemErrno { SystemErrno(rawValue: errno) }

    package static let operationNotPermitted = SystemErrno(rawValue: EPERM)
    /// EINTR: a signal interrupted the call; it is made again.
    public static let interrupted = SystemErrno(rawValue: EINTR)
    /// EIO: an I/O error.
    public static let ioError = SystemErrno(rawValue: EIO)
    package static let badFileDescriptor = SystemErrno(rawValue: EBADF)
    package static let wouldBlock = SystemErrno(rawValue: EAGAIN)
    package static let permissionDenied = SystemErrno(rawValue: EACCES)
    /// EBUSY: the adapter or resource is in use.
    public static let busy = SystemErrno(rawValue: EBUSY)
    package static let noDevice = SystemErrno(rawValue: ENODEV)
    /// EINVAL: an argument the kernel does not accept.
    public static let invalidArgument = SystemErrno(rawValue: EINVAL)
    package static let brokenPipe = SystemErrno(rawValue: EPIPE)
    package static let protocolNotAvailable = SystemErrno(rawValue: ENOPROTOOPT)
    package static let addressFamilyNotSupported = SystemErrno(rawValue: EAFNOSUPPORT)
    package static let networkDown = SystemErrno(rawValue: ENETDOWN)
    package static let connectionAborted = SystemErrno(rawValue: ECONNABORTED)
    package static let connectionReset = SystemErrno(rawValue: ECONNRESET)
    package static let notConnected = SystemErrno(rawValue: ENOTCONN)
    package static let timedOut = SystemErrno(rawValue: ETIMEDOUT)
    package static let connectionRefused = SystemErrno(rawValue: ECONNREFUSED)
    package static let hostDown = SystemErrno(rawValue: EHOSTDOWN)
    package static let hostUnreachable = SystemErrno(rawValue: EHOSTUNREACH)
    /// What a blocking L2CAP connect(2) returns when SO_SNDTIMEO expires first (the kernel's
    /// bt_sock_wait_state), not only for non-blocking sockets.
    package static let inProgress = SystemErrno(rawValue: EINPROGRESS)
    package static let notSupported = SystemErrno(rawValue: EOPNOTSUPP)
    package static let rfKilled = SystemErrno(rawValue: ERFKILL)

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
