import DFUKit
import Foundation

/// How `dfukit flash` shows the link a connection got: one line on standard error, and the
/// `link` object of `--json` (README, "JSON output").
enum LinkGrantFormat {
    /// "link: 2M PHY, data length 251, MTU 247, interval 7.5 ms (asked: ...)"; the simulator's
    /// modelled link says so: "link (modelled): ...".
    static func line(_ grant: LinkGrant) -> String {
        (grant.source == .model ? "link (modelled): " : "link: ") + grant.summary
    }

    /// Every field present; null where the stack did not report the value (or nothing was asked).
    static func json(_ grant: LinkGrant) -> [String: Any] {
        let requested = grant.requested
        return [
            "source": grant.source.rawValue,
            "tx_phy": value(grant.txPHY?.rawValue),
            "rx_phy": value(grant.rxPHY?.rawValue),
            "tx_octets": value(grant.txOctets),
            "rx_octets": value(grant.rxOctets),
            "tx_time_us": value(grant.txTime),
            "rx_time_us": value(grant.rxTime),
            "mtu": value(grant.mtu),
            "interval_ms": value(grant.interval.map(milliseconds)),
            "latency": value(grant.latency),
            "supervision_timeout_ms": value(grant.supervisionTimeout),
            "requested": [
                "phy": value(requested.phy?.rawValue),
                "data_length": value(requested.dataLength),
                "mtu": value(requested.mtu),
                "interval_min_ms": value(requested.intervalMin.map(milliseconds)),
                "interval_max_ms": value(requested.intervalMax.map(milliseconds)),
                "latency": value(requested.latency),
                "supervision_timeout_ms": value(requested.supervisionTimeout),
            ] as [String: Any],
            "notes": grant.notes,
        ]
    }

    private static func milliseconds(_ microseconds: Int) -> Double { Double(microseconds) / 1000 }

    private static func value(_ value: Any?) -> Any { value ?? NSNull() }
}
