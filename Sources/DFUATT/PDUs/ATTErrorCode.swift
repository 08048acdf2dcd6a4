/// The Error Code of an Error Response (Core spec Vol 3, Part F, 3.4.1.1, Table 3.4; and the
/// Core Specification Supplement, Part B, for the common profile and service error codes).
///
/// Open: a code the spec reserves, or an application error (0x80-0x9F), is kept and printed
/// by number.
package struct ATTErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// The attribute handle given was not valid on this server.
    package static let invalidHandle = ATTErrorCode(0x01)
    /// The attribute cannot be read.
    package static let readNotPermitted = ATTErrorCode(0x02)
    /// The attribute cannot be written.
    package static let writeNotPermitted = ATTErrorCode(0x03)
    /// The attribute PDU was invalid.
    package static let invalidPDU = ATTErrorCode(0x04)
    /// The attribute requires authentication before it can be read or written.
    package static let insufficientAuthentication = ATTErrorCode(0x05)
    /// ATT Server does not support the request received from the client.
    package static let requestNotSupported = ATTErrorCode(0x06)
    /// Offset specified was past the end of the attribute.
    package static let invalidOffset = ATTErrorCode(0x07)
    /// The attribute requires authorization before it can be read or written.
    package static let insufficientAuthorization = ATTErrorCode(0x08)
    /// Too many prepare writes have been queued.
    package static let prepareQueueFull = ATTErrorCode(0x09)
    /// No attribute found within the given attribute handle range.
    package static let attributeNotFound = ATTErrorCode(0x0A)
    /// The attribute cannot be read using the ATT_READ_BLOB_REQ PDU.
    package static let attributeNotLong = ATTErrorCode(0x0B)
    /// The Encryption Key Size used for encrypting this link is too short.
    package static let encryptionKeySizeTooShort = ATTErrorCode(0x0C)
    /// The attribute value length is invalid for the operation.
    package static let invalidAttributeValueLength = ATTErrorCode(0x0D)
    /// The attribute request that was requested has encountered an error that was unlikely,
    /// and therefore could not be completed as requested.
    package static let unlikelyError = ATTErrorCode(0x0E)
    /// The attribute requires encryption before it can be read or written.
    package static let insufficientEncryption = ATTErrorCode(0x0F)
    /// The attribute type is not a supported grouping attribute as defined by a higher layer
    /// specification.
    package static let unsupportedGroupType = ATTErrorCode(0x10)
    /// Insufficient Resources to complete the request.
    package static let insufficientResources = ATTErrorCode(0x11)
    /// The server requests the client to rediscover the database.
    package static let databaseOutOfSync = ATTErrorCode(0x12)
    /// The attribute parameter value was not allowed.
    package static let valueNotAllowed = ATTErrorCode(0x13)
    /// A write request was rejected (common profile and service error code).
    package static let writeRequestRejected = ATTErrorCode(0xFC)
    /// The Client Characteristic Configuration descriptor is not configured as the
    /// procedure needs.
    package static let cccdImproperlyConfigured = ATTErrorCode(0xFD)
    /// A request cannot be serviced because an operation that was previously triggered is
    /// still in progress.
    package static let procedureAlreadyInProgress = ATTErrorCode(0xFE)
    /// An attribute value is out of range as defined by a profile or service specification.
    package static let outOfRange = ATTErrorCode(0xFF)

    /// 0x80-0x9F: defined by a higher layer specification (an application error).
    package var isApplicationError: Bool { (0x80...0x9F).contains(rawValue) }

    /// The spec's name, when this code has one.
    package var name: String? { Self.names[self] }

    /// "Attribute Not Found (0x0A)", "Application Error 0x81", "error code 0x55".
    package var description: String {
        let number = "0x" + hexByte(rawValue)
        if let name { return "\(name) (\(number))" }
        if isApplicationError { return "Application Error \(number)" }
        return "error code \(number)"
    }

    private static let names: [ATTErrorCode: String] = [
        .invalidHandle: "Invalid Handle",
        .readNotPermitted: "Read Not Permitted",
        .writeNotPermitted: "Write Not Permitted",
        .invalidPDU: "Invalid PDU",
        .insufficientAuthentication: "Insufficient Authentication",
        .requestNotSupported: "Request Not Supported",
        .invalidOffset: "Invalid Offset",
        .insufficientAuthorization: "Insufficient Authorization",
        .prepareQueueFull: "Prepare Queue Full",
        .attributeNotFound: "Attribute Not Found",
        .attributeNotLong: "Attribute Not Long",
        .encryptionKeySizeTooShort: "Encryption Key Size Too Short",
        .invalidAttributeValueLength: "Invalid Attribute Value Length",
        .unlikelyError: "Unlikely Error",
        .insufficientEncryption: "Insufficient Encryption",
        .unsupportedGroupType: "Unsupported Group Type",
        .insufficientResources: "Insufficient Resources",
        .databaseOutOfSync: "Database Out Of Sync",
        .valueNotAllowed: "Value Not Allowed",
        .writeRequestRejected: "Write Request Rejected",
        .cccdImproperlyConfigured: "Client Characteristic Configuration Descriptor Improperly Configured",
        .procedureAlreadyInProgress: "Procedure Already in Progress",
        .outOfRange: "Out of Range",
    ]
}
