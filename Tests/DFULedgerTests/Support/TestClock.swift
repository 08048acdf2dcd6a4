import DFULedger
import Foundation
import Synchronization

/// A clock tests move by hand, for lease expiry.
final class TestClock: Sendable {
    private let time: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_714_550_400)) {
        time = Mutex(start)
    }

    var now: Date { time.withLock { $0 } }

    func advance(seconds: Double) {
        time.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var ledgerClock: LedgerClock {
        LedgerClock.custom { [self] in now }
    }
}
