import Foundation

/// Number and time formats shared by the renderings, fixed so that output is the same on every
/// machine and locale.
enum ReportFormatting {
    /// `2024-05-01T08:00:00.250Z`.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, remainder) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let hours = remainder / 3_600_000
        let minutes = remainder / 60_000 % 60
        let seconds = remainder / 1000 % 60
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2))."
            + "\(pad(remainder % 1000, 3))Z"
    }

    /// `value` rounded to `digits` decimals, without trailing zeros beyond one: `12.5`, `3.0`.
    static func decimal(_ value: Double, digits: Int = 3) -> String {
        guard value.isFinite else { return "0.0" }
        let scale = pow(10, Double(digits))
        return String((value * scale).rounded() / scale)
    }

    /// `value` with exactly `digits` decimals: `12.50`.
    static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "0" }
        let scale = pow(10, Double(digits))
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = scaled % Int64(scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(pad(fraction, digits))"
    }

    /// Bytes per second as `12.3 kB/s` (1 kB = 1000 bytes).
    static func throughput(_ bytesPerSecond: Double) -> String {
        bytesPerSecond >= 1_000_000 ? "\(fixed(bytesPerSecond / 1_000_000, digits: 2)) MB/s"
            : "\(fixed(bytesPerSecond / 1000, digits: 1)) kB/s"
    }

    /// The first 12 hex digits of a digest.
    static func shortDigest(_ sha256: String) -> String { String(sha256.prefix(12)) }

    private static func pad<Number: BinaryInteger>(_ value: Number, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    /// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian, UTC).
    private static func civilDate(daysSince1970: Int64) -> (Int64, Int64, Int64) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
