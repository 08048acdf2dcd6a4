import Foundation

/// What `sim:mcumgr-smp?state=FILE` keeps: both slots and their trailers (flash), and the upload
/// in progress (Zephyr keeps it in RAM; kept here so that an upload stopped by one command can be
/// resumed by the next, as it would be by a client that reconnects without a reset).
extension SMPServerDevice: SimulatedMemoryKeeping {
    public struct Memory: Codable, Sendable, Equatable {
        /// Slot 0 (runs) and slot 1 (nil: empty or erased), whole MCUboot images.
        package var primary: Data
        /// Slot 1's image; nil when empty or erased.
        public var secondary: Data?
        /// Slot 1's trailer: `none`, `test` (one trial boot) or `permanent`.
        public var marked: String
        /// Slot 0's `image_ok`: false while a tested image runs unconfirmed.
        package var primaryConfirmed: Bool
        /// The upload in progress, if any.
        public var upload: Upload?

        /// An upload in progress: what the client announced and what arrived.
        public struct Upload: Codable, Sendable, Equatable {
            /// The image size the first chunk announced, in bytes.
            public var size: Int
            /// The hash the first chunk announced (may be empty).
            public var sha: Data
            /// The bytes received so far.
            public var received: Data
        }
    }

    /// The device's memory now, for a state file.
    public var memory: Memory {
        let slots = server.slots
        let marked: String = switch slots.pendingSwap {
        case .test: "test"
        case .permanent: "permanent"
        case .none, .revert: "none"
        }
        return Memory(primary: Data(slots.primary.bytes), secondary: slots.secondary.map { Data($0.bytes) },
                      marked: marked, primaryConfirmed: slots.primaryConfirmed,
                      upload: server.upload.map { Memory.Upload(size: $0.size, sha: Data($0.sha), received: Data($0.received)) })
    }

    package func restore(_ memory: Memory) throws(SimulatorStateError) {
        guard let primary = SMPSlotImage(bytes: Array(memory.primary)) else {
            throw SimulatorStateError("slot 0 does not hold an MCUboot image with a SHA256 TLV")
        }
        var secondary: SMPSlotImage?
        if let bytes = memory.secondary {
            guard let image = SMPSlotImage(bytes: Array(bytes)) else {
                throw SimulatorStateError("slot 1 does not hold an MCUboot image with a SHA256 TLV")
            }
            secondary = image
        }
        let marked: MCUbootSlots.SwapType
        switch memory.marked {
        case "none": marked = .none
        case "test": marked = .test
        case "permanent": marked = .permanent
        default: throw SimulatorStateError("slot 1 is marked '\(memory.marked)' (expected none, test or permanent)")
        }
        if marked != .none, secondary == nil {
            throw SimulatorStateError("slot 1 is marked \(memory.marked) but holds no image")
        }
        if let upload = memory.upload, upload.received.count > upload.size || upload.size > server.settings.slotSize {
            throw SimulatorStateError("the upload holds \(upload.received.count) of \(upload.size) bytes, which does not "
                                          + "fit slot 1 (\(server.settings.slotSize) bytes)")
        }
        server.slots = MCUbootSlots(primary: primary, secondary: secondary, pendingSwap: marked,
                                    primaryConfirmed: memory.primaryConfirmed)
        server.upload = memory.upload.map {
            SMPImageUpload(size: $0.size, sha: Array($0.sha), received: Array($0.received))
        }
        server.eraser.assumeErased(upTo: server.upload?.offset ?? 0)
    }
}
