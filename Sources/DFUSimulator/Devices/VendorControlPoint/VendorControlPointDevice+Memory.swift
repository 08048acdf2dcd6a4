import Foundation

/// What `sim:vendor-ctrlpt?state=FILE` keeps: the upload session (bytes received, whether
/// `verify` passed), the running image and the activated one, all in the design's flash.
extension VendorControlPointDevice: SimulatedMemoryKeeping {
    package struct Memory: Codable, Sendable, Equatable {
        package var session: Session?
        /// nil: the factory image.
        package var running: Image?
        package var activated: Image?

        package struct Session: Codable, Sendable, Equatable {
            package var size: Int
            package var crc32: UInt32
            package var sha256: Data
            package var received: Data
            package var verified: Bool
        }

        package struct Image: Codable, Sendable, Equatable {
            package var data: Data
            package var sha256: Data
        }
    }

    package var memory: Memory {
        let image = { (image: VendorControlPointFirmware.Image) in Memory.Image(data: Data(image.data), sha256: Data(image.sha256)) }
        return Memory(session: firmware.session.map {
                          Memory.Session(size: $0.size, crc32: $0.crc32, sha256: Data($0.sha256), received: Data($0.received),
                                         verified: $0.verified)
                      },
                      running: firmware.running.map(image), activated: firmware.activated.map(image))
    }

    package func restore(_ memory: Memory) throws(SimulatorStateError) {
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
