import DFUBytes

/// L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (Vol 3, Part A, 4.20): a peripheral asks the central
/// for other connection parameters.
package struct ConnectionParameterUpdateRequest: Sendable, Hashable {
    package var parameters: HCIConnectionParameters

    package init(parameters: HCIConnectionParameters) { self.parameters = parameters }

    package init(data: [UInt8]) throws(HCIDecodeError) {
        parameters = try decodeParameters("Connection Parameter Update Request", data) { reader throws(ByteReaderError) in
            HCIConnectionParameters(intervalMin: try reader.readUInt16(), intervalMax: try reader.readUInt16(),
                                    latency: try reader.readUInt16(), supervisionTimeout: try reader.readUInt16())
        }
    }

    package var data: [UInt8] {
        var writer = ByteWriter(capacity: 8)
        writer.appendUInt16(parameters.intervalMin)
        writer.appendUInt16(parameters.intervalMax)
        writer.appendUInt16(parameters.latency)
        writer.appendUInt16(parameters.supervisionTimeout)
        return writer.bytes
    }
}
