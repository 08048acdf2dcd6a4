/// One algorithm of the CRC RevEng catalogue: its name, its aliases, its parameters and its
/// check value.
public struct CRCAlgorithm: Sendable {
    /// The catalogue's name, e.g. `CRC-16/XMODEM`.
    public let name: String
    /// Other names the catalogue lists for it, e.g. `XMODEM`, `ZMODEM`.
    package let aliases: [String]
    /// Its parameters in the Williams model.
    public let parameters: CRCParameters
    /// The CRC of the nine ASCII bytes "123456789", as the catalogue gives it.
    public let check: UInt64

    /// Takes the parameters under the catalogue's own names, so that an entry reads like the
    /// catalogue's line.
    init(_ name: String, width: Int, poly: UInt64, init initial: UInt64, refin: Bool, refout: Bool, xorout: UInt64,
         check: UInt64, aliases: [String] = []) {
        self.name = name
        self.aliases = aliases
        self.parameters = CRCParameters(width: width, poly: poly, initial: initial, reflectIn: refin,
                                        reflectOut: refout, xorOut: xorout)
        self.check = check
    }

    /// The CRC of `bytes`.
    public func checksum(_ bytes: [UInt8]) -> UInt64 {
        CRC.checksum(bytes, parameters)
    }
}

/// The CRC-8, CRC-16, CRC-32 and CRC-64 algorithms of the CRC RevEng catalogue, found by name
/// or alias, ignoring case (`CRCCatalogue.algorithm(named: "crc-32c")` is CRC-32/ISCSI).
public enum CRCCatalogue {
    /// Every algorithm, in the catalogue's order.
    package static var algorithms: [CRCAlgorithm] { entries }

    /// Every name and alias, in the catalogue's order (for suggestions and documentation).
    public static let names: [String] = entries.flatMap { [$0.name] + $0.aliases }

    private static let byName: [String: Int] = {
        var index: [String: Int] = [:]
        for (position, algorithm) in entries.enumerated() {
            for name in [algorithm.name] + algorithm.aliases {
                precondition(index.updateValue(position, forKey: name.uppercased()) == nil,
                             "the CRC catalogue lists '\(name)' twice")
            }
        }
        return index
    }()

    /// The algorithm called `name` (a name or an alias, any case), or nil.
    public static func algorithm(named name: String) -> CRCAlgorithm? {
        byName[name.uppercased()].map { entries[$0] }
    }
}
