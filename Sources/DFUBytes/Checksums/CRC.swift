import CZlib

/// A running CRC of any `CRCParameters`: feed bytes with `update`, read the CRC with
/// `finalize()` (which does not end the computation: more bytes may follow).
///
/// CRC-32/ISO-HDLC (zlib's, ZIP's, PNG's) is computed by zlib's `crc32_z`; every other algorithm
/// by one table-driven loop (`CRCTable`, slicing-by-8, tables shared per polynomial).
public struct CRC: Sendable, Hashable {
    /// The algorithm it computes.
    public let parameters: CRCParameters
    private var state: State

    private enum State: Sendable {
        /// zlib's running CRC-32 (already final: zlib inverts before and after each call).
        case zlib(UInt)
        /// The register in `CRCTable`'s layout.
        case table(register: UInt64, CRCTable)
    }

    /// zlib's CRC-32, which `CRC` hands to zlib.
    static let zlibParameters = CRCParameters(width: 32, poly: 0x04C1_1DB7, initial: 0xFFFF_FFFF,
                                              reflectIn: true, reflectOut: true, xorOut: 0xFFFF_FFFF)

    /// A CRC of `parameters` over no bytes yet.
    public init(_ parameters: CRCParameters) {
        self.parameters = parameters
        if parameters == Self.zlibParameters {
            state = .zlib(0)
        } else {
            let table = CRCTable.shared(for: parameters)
            let register = parameters.reflectIn
                ? CRCParameters.reflect(parameters.initial, width: parameters.width)
                : parameters.initial << UInt64(64 - parameters.width)
            state = .table(register: register, table)
        }
    }

    /// Adds the bytes of `buffer` to the computation.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        switch state {
        case .zlib(let value):
            state = .zlib(crc32_z(value, base.assumingMemoryBound(to: Bytef.self), buffer.count))
        case .table(let register, let table):
            state = .table(register: table.update(register, with: buffer), table)
        }
    }

    /// Adds `bytes` to the computation.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds `bytes` to the computation.
    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The CRC of everything fed so far, in its low `width` bits.
    package func finalize() -> UInt64 {
        switch state {
        case .zlib(let value):
            return UInt64(value & 0xFFFF_FFFF)
        case .table(let register, _):
            let width = parameters.width
            // The register as the algorithm's own bit order leaves it: reflected when `refin`.
            let raw = parameters.reflectIn ? register : register >> UInt64(64 - width)
            let output = parameters.reflectIn == parameters.reflectOut ? raw : CRCParameters.reflect(raw, width: width)
            return output ^ parameters.xorOut
        }
    }

    /// The CRC of `bytes` in one call.
    public static func checksum(_ bytes: [UInt8], _ parameters: CRCParameters) -> UInt64 {
        var crc = CRC(parameters)
        crc.update(bytes)
        return crc.finalize()
    }

    public static func == (lhs: CRC, rhs: CRC) -> Bool {
        lhs.parameters == rhs.parameters && lhs.finalize() == rhs.finalize()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(parameters)
        hasher.combine(finalize())
    }
}
