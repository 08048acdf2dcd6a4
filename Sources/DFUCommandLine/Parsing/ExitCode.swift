import DFUKit

/// Exit statuses, after sysexits(3).
public enum ExitCode {
    public static let success: Int32 = 0
    /// The update failed on the device.
    public static let failure: Int32 = 1
    /// The command line was wrong.
    public static let usage: Int32 = 64
    /// A profile or package is invalid.
    public static let dataError: Int32 = 65
    /// The transport (adapter, controller, simulator) cannot be used.
    public static let unavailable: Int32 = 69
    /// Reading or writing a local file failed.
    public static let ioError: Int32 = 74
    /// `batch run --exit-when-halted` ended because its line is halted (EX_TEMPFAIL: resume the
    /// line with `dfukit station resume`, then run again).
    public static let lineHalted: Int32 = 75

    /// The status for an engine error: the library's one table (`DFUKitError.exitCode`), so the
    /// engine itself never deals in exit codes.
    static func of(_ error: FlashError) -> Int32 {
        DFUKitError(error).exitCode
    }
}
