import DFUBytes

/// HCI_LE_Connection_Update (Vol 4, Part E, 7.8.18). Answered by Command Status; the outcome is
/// an LE Connection Update Complete event.
package struct LEConnectionUpdateCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x0013)
    package static let name = "LE Connection Update"
    package static let completion = HCICommandCompletion.commandStatus

    package var handle: UInt16
    package var connectionParameters: HCIConnectionParameters
    package var minCELength: UInt16
    package var maxCELength: UInt16

    package init(handle: UInt16, connectionParameters: HCIConnectionParameters, minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
        self.handle = handle
        self.connectionParameters = connectionParameters
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            LEConnectionUpdateCommand(
                handle: try reader.readUInt16(),
                connectionParameters: HCIConnectionParameters(intervalMin: try reader.readUInt16(),
                                                    intervalMax: try reader.readUInt16(),
                                                    latency: try reader.readUInt16(),
                                                    supervisionTimeout: try reader.readUInt16()),
                minCELength: try reader.readUInt16(), maxCELength: try reader.readUInt16())
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 14)
        writer.appendUInt16(handle)
        writer.appendUInt16(connectionParameters.intervalMin)
        writer.appendUInt16(connectionParameters.intervalMax)
        writer.appendUInt16(connectionParameters.latency)
        writer.appendUInt16(connectionParameters.supervisionTimeout)
        writer.appendUInt16(minCELength)
        writer.appendUInt16(maxCELength)
        return writer.bytes
    }
}

/// Connection parameters as HCI and L2CAP carry them: intervals in 1.25 ms units, latency in
/// connection events, supervision timeout in 10 ms units.
package struct HCIConnectionParameters: Sendable, Hashable, CustomStringConvertible {
    package var intervalMin: UInt16
    package var intervalMax: UInt16
    package var latency: UInt16
    package var supervisionTimeout: UInt16

    package init(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }

    /// Whether the values are in the spec's ranges (Vol 4, Part E, 7.8.18): interval 6...3200,
    /// min <= max, latency <= 499, timeout 10...3200 and longer than (1 + latency) * interval * 2.
    package var isValid: Bool {
        guard (6...3200).contains(intervalMin), (6...3200).contains(intervalMax), intervalMin <= intervalMax,
              latency <= 499, (10...3200).contains(supervisionTimeout) else { return false }
        // timeout (10 ms units) * 10 > (1 + latency) * intervalMax (1.25 ms units) * 1.25 * 2
        return Int(supervisionTimeout) * 40 > (1 + Int(latency)) * Int(intervalMax) * 10
    }

    package var description: String {
        "interval \(intervalMin)-\(intervalMax) x 1.25 ms, latency \(latency), timeout \(Int(supervisionTimeout) * 10) ms"
    }
}
