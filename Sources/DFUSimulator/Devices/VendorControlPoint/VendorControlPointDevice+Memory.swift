import Foundation

/// What `sim:vendor-ctrlpt?state=FILE` keeps: the upload session (bytes received, whether
/// `verify` passed), the running image and the activated one, all in the design's flash.
extension VendorControlPointDevice: SimulatedMemoryKeeping {
    public struct Memory: Codable, Sendable, Equatable {
        public var session: Session?
        /// nil: the factory image.
        public var running: Image?
        public var activated: Image?

        public struct Session: Codable, Sendable, Equatable {
            public var size: Int
            public var crc32: UInt32
            public var sha256: Data
            public var received: Data
            public var verified: Bool
        }

        public struct Image: Codable, Sendable, Equatable {
            public var data: Data
            public var sha256: Data
        }
    }

    public var memory: Memory {
        let image = { (image: VendorControlPointFirmware.Image) in Memory.Image(data: Data(image.data), sha256: Data(image.sha256)) }
        return Memory(session: firmware.session.map {
                          Memory.Session(size: $0.size, crc32: $0.crc32, sha256: Data($0.sha256), received: Data($0.received),
                                         verified: $0.verified)
                      },
                      running: firmware.running.map(image), activated: firmware.activated.map(image))
    }

    public func restore(_ memory: Memory) throws(SimulatorStateError) {
        if let session = memory.session {
            guard session.received.count <= session.size, session.size <= slotSize, session.sha256.count == 32 else {
                throw SimulatorStateError("the upload session (\(session.received.count) of \(session.size) bytes) does "
                                              + "not fit the \(slotSize)-byte slot, or its SHA-256 is not 32 bytes")
            }
        }
        let image = { (image: Memory.Image) in VendorControlPointFirmware.Image(data: Array(image.data), sha256: Array(image.sha256)) }
        firmware.restore(session: memory.session.map {
                             VendorControlPointFirmware.UploadSession(size: $0.size, crc32: $0.crc32, sha256: Array($0.sha256),
                                                                      received: Array($0.received), verified: $0.verified)
                         },
                         running: memory.running.map(image), activated: memory.activated.map(image))
    }
}
