#if canImport(Glibc)
import Glibc
#endif

/// A C `errno` value, as swift-system models it: an open struct with the codes this module
/// names, so an unexpected code is still printed ("errno 123"), never a crash.
package struct Errno: RawRepresentable, Error, Sendable, Hashable, CustomStringConvertible {
    /// The C `errno` value.
    package let rawValue: Int32
    /// The errno with this value.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`, read right after a failed call.
    package static var current: Errno { Errno(rawValue: errno) }

    package static let operationNotPermitted = Errno(rawValue: EPERM)
    package static let noSuchFile = Errno(rawValue: ENOENT)
    package static let interrupted = Errno(rawValue: EINTR)
    package static let ioError = Errno(rawValue: EIO)
    package static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    package static let badFileDescriptor = Errno(rawValue: EBADF)
    package static let wouldBlock = Errno(rawValue: EAGAIN)
    package static let permissionDenied = Errno(rawValue: EACCES)
    package static let busy = Errno(rawValue: EBUSY)
    package static let fileExists = Errno(rawValue: EEXIST)
    package static let noDevice = Errno(rawValue: ENODEV)
    package static let invalidArgument = Errno(rawValue: EINVAL)
    package static let notATerminal = Errno(rawValue: ENOTTY)
    package static let brokenPipe = Errno(rawValue: EPIPE)
    package static let messageTooLong = Errno(rawValue: EMSGSIZE)
    package static let addressFamilyNotSupported = Errno(rawValue: EAFNOSUPPORT)
    package static let addressInUse = Errno(rawValue: EADDRINUSE)
    package static let addressNotAvailable = Errno(rawValue: EADDRNOTAVAIL)
    package static let networkUnreachable = Errno(rawValue: ENETUNREACH)
    package static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    package static let hostUnreachable = Errno(rawValue: EHOSTUNREACH)

    /// The C name ("ECONNREFUSED"), or "errno N" for codes not named here.
    package var name: String {
        let names: [Int32: String] = [
            EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF",
            EAGAIN: "EAGAIN", EACCES: "EACCES", EBUSY: "EBUSY", EEXIST: "EEXIST", ENODEV: "ENODEV",
            EINVAL: "EINVAL", ENOTTY: "ENOTTY", EPIPE: "EPIPE", EMSGSIZE: "EMSGSIZE",
            EAFNOSUPPORT: "EAFNOSUPPORT", EADDRINUSE: "EADDRINUSE", EADDRNOTAVAIL: "EADDRNOTAVAIL",
            ENETUNREACH: "ENETUNREACH", ECONNREFUSED: "ECONNREFUSED", EHOSTUNREACH: "EHOSTUNREACH",
        ]
        return names[rawValue] ?? "errno \(rawValue)"
    }

    /// strerror(3): "Connection refused".
    package var message: String { String(cString: strerror(rawValue)) }

    /// "Connection refused (ECONNREFUSED)".
    package var description: String { "\(message) (\(name))" }
}
