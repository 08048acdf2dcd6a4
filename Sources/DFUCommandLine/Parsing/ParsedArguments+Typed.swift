import DFUKit

/// Typed values of options, read one way for every command (the same words for the same
/// mistake in `flash` and `batch run`).
extension ParsedArguments {
    /// The option's integer, which must lie in `range`; nil when the option is absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), not '\(text)'",
                             command: command)
        }
        return number
    }

    /// The option's duration (`90s`, `2m`, `1h`), which must be more than zero; nil when absent.
    func duration(_ name: String) throws(UsageError) -> Duration? {
        guard let text = value(name) else { return nil }
        guard let duration = ProfileDuration.parse(text), duration > .zero else {
            throw UsageError("\(name) must be a duration such as 90s or 2m, not '\(text)'", command: command)
        }
        return duration
    }

    /// `--name` and `--min-rssi`: which advertisers a scan may pick (`SharedOptions.selection`).
    func deviceSelection() throws(UsageError) -> DeviceSelection {
        DeviceSelection(namePattern: value("--name"), minimumRSSI: try integer("--min-rssi", in: SharedOptions.rssiRange))
    }
}
