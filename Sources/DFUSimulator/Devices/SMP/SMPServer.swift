import DFUBytes

/// The SMP server of a Zephyr application booted by MCUboot: takes one request frame, runs the
/// OS or image group command and builds the response frame. Pure: no link and no clock; the
/// device (`SMPServerDevice`) adds reassembly, buffers and timing.
public struct SMPServer: Sendable {
    /// Buffers, erase mode and protocol version.
    public let settings: SMPServerSettings
    /// The image slots.
    public internal(set) var slots: MCUbootSlots
    var upload: SMPImageUpload?
    var eraser: SMPSlotEraser
    /// Requests handled, counted over the device's life (the `busy:N` fault counts these).
    package private(set) var requestCount = 0
    /// The header of every request handled, in order.
    package private(set) var requestLog: [SMPHeader] = []

    static let osGroup: UInt16 = 0
    static let imageGroup: UInt16 = 1

    /// What one request produced.
    struct Outcome {
        var response: [UInt8]
        /// Device time spent before the response is ready.
        var cost: Duration
        /// The handler armed the reset timer (the device reboots `resetDelay` later).
        var armsReset: Bool
    }

    /// A server whose slot 0 holds `factoryImage`.
    public init(settings: SMPServerSettings, factoryImage: SMPSlotImage) {
        self.settings = settings
        self.slots = MCUbootSlots(primary: factoryImage)
        self.eraser = SMPSlotEraser(mode: settings.eraseMode, flash: settings.flash, slotSize: settings.slotSize)
    }

    /// Bytes of the unfinished upload received so far (0 when none).
    package var uploadedByteCount: Int { upload?.offset ?? 0 }

    /// Handles one complete frame (header + body). Nil for something that is not a request (an
    /// answer's op, or fewer than 8 bytes): Zephyr drops those.
    mutating func handle(frame: [UInt8]) -> Outcome? {
        guard let header = SMPHeader(decoding: frame),
              header.operation == .read || header.operation == .write else { return nil }
        requestCount += 1
        requestLog.append(header)
        let answerVersion = settings.protocolVersion == 1 ? SMPHeader.version1 : min(header.version, SMPHeader.version2)
        let handled: SMPHandled
        if frame.count > settings.bufferSize {
            handled = SMPHandled(reply: .failure(.messageTooLarge))
        } else if settings.busyRequests.contains(requestCount) {
            handled = SMPHandled(reply: .failure(.busy))
        } else if settings.protocolVersion != 1, header.version > SMPHeader.version2 {
            handled = SMPHandled(reply: .failure(.unsupportedTooNew))
        } else if let body = try? CBOR.decode(Array(frame[SMPHeader.size...])), body.mapEntries != nil {
            handled = dispatch(header, body)
        } else {
            handled = SMPHandled(reply: .failure(.invalidArgument))
        }
        let body = CBOR.encode(handled.reply.body(version: answerVersion))
        let responseHeader = header.response(version: answerVersion, length: body.count)
        return Outcome(response: responseHeader.bytes + body, cost: settings.requestOverhead + handled.cost,
                       armsReset: handled.armsReset)
    }

    private mutating func dispatch(_ header: SMPHeader, _ body: CBORValue) -> SMPHandled {
        let isWrite = header.operation == .write
        switch (header.group, header.command, isWrite) {
        case (Self.osGroup, 0, _): return echo(body)
        case (Self.osGroup, 5, true): return reset()
        case (Self.osGroup, 6, false): return parameters()
        case (Self.imageGroup, 0, false): return SMPHandled(reply: imageStateReply())
        case (Self.imageGroup, 0, true): return writeImageState(body)
        case (Self.imageGroup, 1, true): return uploadChunk(body)
        case (Self.imageGroup, 5, true): return eraseSlot()
        default: return SMPHandled(reply: .failure(.notSupported))
        }
    }

    /// The device reset and MCUboot runs: the slots swap as marked. The upload state
    /// (`g_img_mgmt_state` in img_mgmt.c) is in RAM: whatever slot 1 holds, a new upload starts
    /// at offset 0.
    mutating func reboot() -> MCUbootSlots.BootAction {
        upload = nil
        return slots.boot()
    }

    /// The names a request frame answers to for command faults (`SMPServerDevice.commandNames`),
    /// or none for a request that is not one of them.
    static func commandNames(of frame: [UInt8]) -> [String] {
        guard let header = SMPHeader(decoding: frame) else { return [] }
        let isWrite = header.operation == .write
        switch (header.group, header.command, isWrite) {
        case (osGroup, 0, _): return ["echo"]
        case (osGroup, 5, true): return ["reset"]
        case (osGroup, 6, false): return ["params"]
        case (imageGroup, 0, false): return ["image_list"]
        case (imageGroup, 0, true):
            let body = try? CBOR.decode(Array(frame[SMPHeader.size...]))
            return [body?["confirm"]?.booleanValue == true ? "image_confirm" : "image_test"]
        case (imageGroup, 1, true): return ["upload"]
        case (imageGroup, 5, true): return ["image_erase"]
        default: return []
        }
    }
}
