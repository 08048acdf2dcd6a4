/// The management side of one scan, as a pure state machine: which command to send for each
/// event. `BlueZAdapter.scan` feeds it the events it reads and does the I/O.
///
/// start → (Command Complete/Status of Start Discovery) → listening; Success means this scan
/// owns discovery and stops it at the end; Busy means another client (bluetoothd) is
/// discovering, whose Device Found events reach every management socket, so the scan listens
/// to those. Discovering(false) while listening (the kernel ends LE discovery after about
/// 10 s, or the other client stopped) starts discovery again.
struct MgmtDiscovery {
    enum Action: Equatable {
        /// Not about discovery: the caller looks for Device Found in it.
        case none
        case send(MgmtCommand)
        /// Start Discovery was refused.
        case fail(MgmtStatus)
    }

    let index: UInt16
    let addressTypes: MgmtAddressTypes
    /// Start Discovery was answered (so Device Found events are this scan's).
    private(set) var isListening = false
    /// This scan started discovery, and so must stop it.
    private(set) var ownsDiscovery = false
    private var awaitingAnswer = false

    init(index: UInt16, addressTypes: MgmtAddressTypes = .le) {
        self.index = index
        self.addressTypes = addressTypes
    }

    mutating func start() -> MgmtCommand {
        awaitingAnswer = true
        return .startDiscovery(index: index, addressTypes: addressTypes)
    }

    mutating func handle(_ event: MgmtEvent?) -> Action {
        guard let event else { return .none }
        if awaitingAnswer, let status = event.status(of: MgmtCommand.startDiscoveryCode, index: index) {
            awaitingAnswer = false
            switch status {
            case .success:
                isListening = true
                ownsDiscovery = true
                return .none
            case .busy:
                isListening = true
                return .none
            default:
                return .fail(status)
            }
        }
        if case let .discovering(eventIndex, _, active) = event, eventIndex == index, !active,
           isListening, !awaitingAnswer {
            ownsDiscovery = false
            return .send(start())
        }
        return .none
    }

    /// The command that ends the scan: Stop Discovery when this scan owns discovery (or may
    /// own it: a start not yet answered), else nothing.
    mutating func finish() -> MgmtCommand? {
        defer { ownsDiscovery = false; awaitingAnswer = false }
        return ownsDiscovery || awaitingAnswer ? .stopDiscovery(index: index, addressTypes: addressTypes) : nil
    }
}
