import DFUKit
import DFULedger
import Foundation
import Synchronization

/// Writes `batch run`'s live rows for the station dashboard (`LiveBoard` decides what and when):
/// the station's row at start (`running`), every 5 s, `halted` while it waits on a halted line
/// and `ended` at exit; each device's row at its start, phase changes and at most once a second
/// of progress; cleared when it finishes.
///
/// Never in the flash's way: `handle` only updates the board (the runner calls it from its
/// tasks), one task of its own writes, and a write that fails is dropped (the attempt's record
/// is what counts) with one warning for the whole run.
final class LiveFeed: Sendable {
    private let ledger: any Ledger
    private let station: String
    private let line: String
    private let packageSHA256: String
    /// The ledger's number of the device's attempt `attempt` of this run (it counts earlier runs).
    private let attemptNumber: @Sendable (String, Int) async -> Int
    private let console: any Console
    /// The station's radios, as its row names them.
    private let radios: [String]
    private let startedAt = Date()
    private let board = Mutex(LiveBoard())
    private let warned = Mutex(false)
    private let doorbell: AsyncStream<Void>.Continuation
    private let rings: AsyncStream<Void>
    private let tasks = Mutex<(writer: Task<Void, Never>?, ticker: Task<Void, Never>?)>((nil, nil))

    init(ledger: any Ledger, station: String, line: String, packageSHA256: String, radios: [String] = [],
         console: any Console, attemptNumber: @escaping @Sendable (String, Int) async -> Int) {
        self.ledger = ledger
        self.radios = radios
        self.station = station
        self.line = line
        self.packageSHA256 = packageSHA256
        self.console = console
        self.attemptNumber = attemptNumber
        (rings, doorbell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Announces the station and starts writing.
    func start() async {
        await write(board.withLock { $0.writes(at: Date()) })
        let rings = rings
        let writer = Task {
            for await _ in rings { await self.write(self.board.withLock { $0.writes(at: Date()) }) }
        }
        let doorbell = doorbell
        let ticker = Task {
            while (try? await Task.sleep(for: .seconds(1))) != nil { doorbell.yield() }
        }
        tasks.withLock { $0 = (writer, ticker) }
    }

    /// Takes in a runner event (from any task; returns at once).
    func handle(_ event: BatchEvent) {
        if board.withLock({ $0.apply(event, at: Date()) }) { doorbell.yield() }
    }

    /// Stops writing, clears the rows of devices still in flight and announces the station ended.
    func finish() async {
        let (writer, ticker) = tasks.withLock { $0 }
        ticker?.cancel()
        doorbell.finish()
        await writer?.value
        await write(board.withLock { board in
            board.end()
            return board.writes(at: Date())
        })
    }

    private func write(_ writes: [LiveBoard.Write]) async {
        for write in writes {
            do {
                switch write {
                case let .publish(device, state):
                    let number = await attemptNumber(device, state.attempt)
                    try await ledger.publishLive(LiveDevice(
                        device: device, packageSHA256: packageSHA256, station: station, session: ledger.session.text,
                        radio: state.radio, line: line, attempt: number, phase: state.phase, done: state.done, total: state.total,
                        bytesPerSecond: state.bytesPerSecond, rssi: state.link.rssi, phy: state.link.phy,
                        mtu: state.link.mtu, startedAt: state.startedAt))
                case let .clear(device):
                    try await ledger.clearLive(device: device, packageSHA256: packageSHA256, session: ledger.session.text)
                case let .announce(state):
                    try await ledger.announceStation(StationStatus(station: station, session: ledger.session, line: line,
                                                                   radios: radios, state: state, startedAt: startedAt))
                }
            } catch {
                warnOnce(error)
            }
        }
    }

    private func warnOnce(_ error: LedgerError) {
        let first = warned.withLock { warned in
            defer { warned = true }
            return !warned
        }
        if first {
            console.error("warning: the station dashboard's live rows could not be written (\(error)); flashing goes on, "
                          + "the attempts are recorded as ever (this warning is not repeated)")
        }
    }
}
