/// What a connection was asked to be and what the controller, the kernel and the device granted:
/// PHY, link-layer data length, ATT_MTU, connection interval, latency, supervision timeout.
///
/// Every granted value is optional: nil means the stack did not say (BlueZ's sockets expose no
/// connection interval, for one), never a guess. `requested` is what DFUKit asked for; a value
/// asked for and not granted is a refusal by the controller or the device (or a feature one of
/// them lacks), which `notes` explains when the stack said why.
public struct LinkGrant: Sendable, Hashable {
    /// A PHY as HCI and BlueZ name them (LE 1M, LE 2M, LE Coded).
    public enum PHY: String, Sendable, Hashable {
        /// LE 1M: 1 Msym/s, the PHY every LE device supports and every connection starts on.
        case le1M = "1M"
        /// LE 2M: 2 Msym/s, optional; halves the airtime of each packet.
        case le2M = "2M"
        /// LE Coded (S=2 or S=8): long range at 500 or 125 kbit/s, optional.
        case leCoded = "Coded"

        /// The HCI PHY number of LE PHY Update Complete (1 = 1M, 2 = 2M, 3 = Coded).
        public init?(hciValue: UInt8) {
            switch hciValue {
            case 1: self = .le1M
            case 2: self = .le2M
            case 3: self = .leCoded
            default: return nil
            }
        }
    }

    /// Where the values come from, for the reader of a report.
    public enum Source: String, Sendable, Hashable {
        /// DFUKit's own HCI host: the controller's events.
        case controller
        /// The Linux kernel (BlueZ): socket options and what a raw HCI socket saw.
        case kernel
        /// The simulator's link model.
        case model
    }

    /// What DFUKit asked for (nil: nothing asked, the stack's default).
    public struct Request: Sendable, Hashable {
        /// The PHY asked for in both directions (DFUKit's HCI host asks with LE Set PHY).
        public var phy: PHY?
        /// LL payload octets (27...251).
        public var dataLength: Int?
        /// The ATT_MTU this side proposed in its Exchange MTU Request (23...517).
        public var mtu: Int?
        /// Connection interval range, microseconds (multiples of 1250): the shortest asked.
        public var intervalMin: Int?
        /// The longest connection interval asked, microseconds (multiples of 1250).
        public var intervalMax: Int?
        /// Peripheral latency asked: connection events the peripheral may skip (0...499).
        public var latency: Int?
        /// Milliseconds.
        public var supervisionTimeout: Int?

        /// A request of these values; each nil leaves the stack's default.
        public init(phy: PHY? = nil, dataLength: Int? = nil, mtu: Int? = nil, intervalMin: Int? = nil,
                    intervalMax: Int? = nil, latency: Int? = nil, supervisionTimeout: Int? = nil) {
            self.phy = phy
            self.dataLength = dataLength
            self.mtu = mtu
            self.intervalMin = intervalMin
            self.intervalMax = intervalMax
            self.latency = latency
            self.supervisionTimeout = supervisionTimeout
        }

        /// Whether nothing was asked (every value nil): reports then leave out "asked".
        public var isEmpty: Bool { self == Request() }
    }

    /// Which stack reported these values.
    public var source: Source
    /// The PHY this side transmits on (central to peripheral), nil when not reported.
    public var txPHY: PHY?
    /// The PHY this side receives on (peripheral to central), nil when not reported.
    public var rxPHY: PHY?
    /// LL payload octets this side may send in one packet (LE Data Length Change's
    /// MaxTxOctets; 27 until one).
    public var txOctets: Int?
    /// LL payload octets the peripheral may send in one packet (LE Data Length Change's
    /// MaxRxOctets; 27 until one).
    public var rxOctets: Int?
    /// Longest LL packet airtime sent, microseconds (MaxTxTime), when the stack says.
    public var txTime: Int?
    /// Longest LL packet airtime received, microseconds (MaxRxTime), when the stack says.
    public var rxTime: Int?
    /// The ATT_MTU the exchange settled on.
    public var mtu: Int?
    /// Connection interval, microseconds.
    public var interval: Int?
    /// Peripheral latency, connection events.
    public var latency: Int?
    /// Milliseconds.
    public var supervisionTimeout: Int?
    /// What DFUKit asked for on this connection, to compare with what was granted.
    public var requested: Request
    /// Why something asked for was not granted, or what the stack could not report.
    public var notes: [String]

    /// A grant reported by `source`; every value not given is "not reported".
    public init(source: Source, txPHY: PHY? = nil, rxPHY: PHY? = nil, txOctets: Int? = nil, rxOctets: Int? = nil,
                txTime: Int? = nil, rxTime: Int? = nil, mtu: Int? = nil, interval: Int? = nil, latency: Int? = nil,
                supervisionTimeout: Int? = nil, requested: Request = Request(), notes: [String] = []) {
        self.source = source
        self.txPHY = txPHY
        self.rxPHY = rxPHY
        self.txOctets = txOctets
        self.rxOctets = rxOctets
        self.txTime = txTime
        self.rxTime = rxTime
        self.mtu = mtu
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
        self.requested = requested
        self.notes = notes
    }

    /// Microseconds from a count of 1.25 ms units (HCI connection intervals).
    public static func microseconds(intervalUnits units: UInt16) -> Int { Int(units) * 1250 }

    /// Microseconds as milliseconds without trailing zeros: 7500 → "7.5", 15000 → "15",
    /// 11250 → "11.25".
    public static func millisecondsText(microseconds: Int) -> String {
        let whole = microseconds / 1000
        var fraction = String(abs(microseconds % 1000))
        guard fraction != "0" else { return String(whole) }
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }

    /// One line for people: "2M PHY, data length 251, MTU 247, interval 7.5 ms (asked: 2M PHY,
    /// data length 251, MTU 247, interval 7.5-15 ms)", then the notes after semicolons.
    public var summary: String {
        var text = Self.phyText(txPHY, rxPHY) + ", " + Self.pairText("data length", txOctets, rxOctets)
            + ", MTU " + (mtu.map(String.init) ?? "not reported")
            + ", interval " + (interval.map { Self.millisecondsText(microseconds: $0) + " ms" } ?? "not reported")
        if let latency, latency != 0 { text += ", latency \(latency)" }
        if !requested.isEmpty { text += " (asked: \(Self.requestText(requested)))" }
        for note in notes { text += "; " + note }
        return text
    }

    private static func phyText(_ tx: PHY?, _ rx: PHY?) -> String {
        switch (tx, rx) {
        case (nil, nil): return "PHY not reported"
        case let (tx?, rx?) where tx == rx: return "\(tx.rawValue) PHY"
        default: return "\(tx?.rawValue ?? "?")/\(rx?.rawValue ?? "?") PHY (tx/rx)"
        }
    }

    private static func pairText(_ name: String, _ tx: Int?, _ rx: Int?) -> String {
        switch (tx, rx) {
        case (nil, nil): return "\(name) not reported"
        case let (tx?, rx?) where tx == rx: return "\(name) \(tx)"
        default: return "\(name) \(tx.map(String.init) ?? "?")/\(rx.map(String.init) ?? "?") (tx/rx)"
        }
    }

    private static func requestText(_ request: Request) -> String {
        var parts: [String] = []
        if let phy = request.phy { parts.append("\(phy.rawValue) PHY") }
        if let length = request.dataLength { parts.append("data length \(length)") }
        if let mtu = request.mtu { parts.append("MTU \(mtu)") }
        switch (request.intervalMin, request.intervalMax) {
        case let (low?, high?) where low != high:
            parts.append("interval \(millisecondsText(microseconds: low))-\(millisecondsText(microseconds: high)) ms")
        case let (low?, _), let (nil, low?):
            parts.append("interval \(millisecondsText(microseconds: low)) ms")
        default: break
        }
        if let latency = request.latency, latency != 0 { parts.append("latency \(latency)") }
        return parts.joined(separator: ", ")
    }
}
