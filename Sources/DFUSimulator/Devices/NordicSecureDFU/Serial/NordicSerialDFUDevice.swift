import DFUBytes
import DFUGATT
import DFUWire

/// An nRF5 SDK 15-17 Secure DFU bootloader reached over its serial transport, a UART or USB
/// CDC ACM (`sim:nordic-secure-dfu?link=serial`), as pc-nrfutil's `dfu serial`
/// (`nordicsemi/dfu/dfu_transport_serial.py`) talks to it. The protocol logic is the one of
/// the BLE device, `NordicSecureDFUDevice` (`SecureDFUBootloader`), in DFU mode; this type is
/// the serial transport in front of it, modelled on the SDK's
/// `components/libraries/bootloader/serial_dfu/nrf_dfu_serial.c`, `nrf_dfu_serial_uart.c`,
/// `nrf_dfu_serial_usb.c`, `components/libraries/slip/slip.c` and
/// `components/libraries/bootloader/dfu/nrf_dfu_req_handler.c` (read in SDK 15.0 and 17.1, all
/// but the USB transport also in 16.0; the parts modelled here are the same in each):
///
/// - **Framing.** Each request is one SLIP frame, `<opcode> <payload> C0`; each answer is
///   `60 <opcode> <result> [fields]`, SLIP-encoded (`SLIPEncoder`, as `slip_encode`). Frames
///   are decoded as slip.c does (`NordicSerialSLIPReceiver`): a bad escape loses its frame
///   (`DB C0` the next one too), and a frame of `mtu` decoded bytes or more leaves the decoder
///   refusing every later byte until the bootloader resets.
/// - **Requests.** `08 <data>` (Write) is the BLE packet characteristic's write: part of the
///   current object. Every other opcode is a control-point request, and its answer gets the
///   serial fields BLE leaves out (`NordicSerialResponse`): Get MTU (`07`) answers the
///   transport's `mtu` (131 over a UART, 2051 over USB), ping (`09 id`) echoes the id,
///   protocol version (`00`) answers 1.
/// - **Packet receipts.** `dfu_req_handler_rsp_clbk` answers a Write only when a receipt is
///   due: with PRN 0 never, not even when the write failed; with PRN N after every Nth write
///   (the count restarts at Set PRN and at Create) a checksum response `60 03 <result>` with,
///   on success, the offset and CRC32 after that write (u32 each). A write that fails on any
///   other write is not reported. (The counting itself is the bootloader logic's, which
///   nrf_dfu_ble.c counts alike.)
/// - **Timing.** Answers leave when the request was heard, in request order; Execute of a data
///   object waits for the flash work queued before it (`SecureDFUBootloader`, `FlashTiming`).
/// - **The end.** The last Execute is answered; then the settings are written and backed up,
///   the transport is closed (a UART hears nothing from then on; USB's close does nothing),
///   the settings are backed up once more and the bootloader resets, with no 200 ms wait
///   (that is BLE's, `ble_dfu_transport_close`). While it resets and boots (`isRunning`
///   false) a UART loses what arrives and a USB port is gone; then DFU mode starts again
///   (the simulator has no application to start). ABORT (`0C`) is never answered: the request
///   handler's `on_abort_request` raises `NRF_DFU_EVT_DFU_ABORTED`, and `nrf_bootloader.c`
///   `dfu_observer` resets at once (`bootloader_reset`: SDK 15.0 directly; 16-17 after a
///   settings backup, which the serial bootloaders' flash backend, fstorage NVMC, completes
///   synchronously), before the handler gets to send the response.
/// - 120 s without DFU progress reset the bootloader (`NRF_BL_DFU_INACTIVITY_TIMEOUT_MS`),
///   which is also what brings a decoder stuck on an overlong frame back.
///
/// Not modelled: the serial bootloaders write flash synchronously (NVMC backend, no
/// SoftDevice), so the real Create of a data object answers only after its page erase (85 ms on
/// an nRF52) and the Execute of the init packet after its two settings writes, while the
/// model queues that work and makes the data Execute wait for it, as over BLE; the 3 receive
/// buffers (`NRF_DFU_SERIAL_UART_RX_BUFFERS`) and what happens when they run out (a data Write
/// the request handler refuses is never freed in SDK 15-17, `on_data_obj_write_request`; with
/// every buffer taken the transport keeps decoding the next frame into the last one);
/// hardware and firmware version fields; empty frames and requests shorter than their fields
/// (the firmware reads stale buffer bytes; a ping without an id is answered with id 0, a short
/// Set PRN or Create is refused as the bootloader logic refuses it); a Write with no data (the
/// firmware counts it for PRN; the model ignores it).
public final class NordicSerialDFUDevice: SimulatedWirePeripheral {
    /// The transport: UART or USB CDC ACM.
    public let transport: NordicSerialDFUTransport
    /// What Get MTU answers, and the SLIP decode buffer's size in bytes.
    public let mtu: Int
    /// The bootloader behind the transport: the BLE device's protocol logic, reset and
    /// activation, in DFU mode. Its state (installed images, the bank, the command log) is
    /// this device's.
    package let bootloader: NordicSecureDFUDevice
    private var receiver: NordicSerialSLIPReceiver
    private let encoder = SLIPEncoder()
    /// When the UART transport was closed for the reset (it hears nothing from then on); nil
    /// while it is open.
    private var transportClosedAt: Duration?
    /// When the last answer was ready: answers leave in the order of their requests.
    private var lastAnswerAt: Duration = .zero
    /// Frames the SLIP decoder dropped since the device was made, oldest first.
    package private(set) var discardedFrames: [SLIPDiscardedFrame] = []
    /// Bytes that reached the running device but no decoder: the UART was closed, the decoder
    /// was clearing after `DB C0`, or its buffer was full.
    package private(set) var ignoredByteCount = 0

    /// The address the BLE device model needs; nothing on a serial line uses it.
    private static let unusedAddress = DeviceAddress(string: "C0:FF:EE:00:00:01")!

    /// A serial Secure DFU bootloader in DFU mode.
    /// - Parameters:
    ///   - publicKeyDER: the ECDSA P-256 key (DER SubjectPublicKeyInfo) init packets must be
    ///     signed with; nil accepts unsigned and signed packets without checking.
    ///   - hardwareVersion: the `hw_version` init packets must name.
    ///   - softDeviceID: the SoftDevice FWID `sd_req` must list; nil skips the check.
    ///   - capacity: the largest image the bank takes.
    ///   - resumePolicy: what progress survives (`SecureDFUResumePolicy`); a serial link has
    ///     no disconnect, so only a reset tells the policies apart.
    ///   - flash: the flash timing.
    ///   - failingCommands: requests (1-based count of control-point requests) answered
    ///     "operation failed" (the `busy:N` fault).
    ///   - bootTime: from a reset to DFU mode (nil: `SecureDFUTiming.defaultBootTime`, 1.1 s).
    ///   - transport: UART or USB CDC ACM.
    ///   - mtu: what Get MTU answers and the decode buffer's size, 7...65535 (nil: the
    ///     transport's, `NordicSerialDFUTransport.defaultMTU`).
    public init(publicKeyDER: [UInt8]? = nil, hardwareVersion: UInt32 = 52, softDeviceID: UInt32? = nil,
                capacity: Int = 0xD_0000, resumePolicy: SecureDFUResumePolicy = .ram, flash: FlashTiming = FlashTiming(),
                failingCommands: Set<Int> = [], bootTime: Duration? = nil,
                transport: NordicSerialDFUTransport = .uart, mtu: Int? = nil) {
        let mtu = mtu ?? transport.defaultMTU
        // Create (6 bytes) must fit below the buffer's end; the answer carries the MTU as u16.
        precondition((7...0xFFFF).contains(mtu), "a serial DFU MTU of \(mtu) bytes is not 7...65535")
        self.transport = transport
        self.mtu = mtu
        self.bootloader = NordicSecureDFUDevice(address: Self.unusedAddress, publicKeyDER: publicKeyDER,
                                                hardwareVersion: hardwareVersion, softDeviceID: softDeviceID,
                                                capacity: capacity, resumePolicy: resumePolicy, flash: flash,
                                                failingCommands: failingCommands,
                                                bootTime: bootTime ?? SecureDFUTiming.defaultBootTime)
        bootloader.transportCloseWait = .zero
        self.receiver = NordicSerialSLIPReceiver(bufferLength: mtu)
    }

    /// The device `sim:nordic-secure-dfu?...` describes, reached over `transport`: the same
    /// settings as `SimulatedDeviceCatalog` gives the BLE device (`key`, `resume`, the flash
    /// timing, `busy:N` faults, `boot-ms`), with the MTU of `transport` unless `mtu` is given.
    /// What only a radio link has does not apply and is ignored: the address and name,
    /// `buttonless` (a serial bootloader is entered by its own means), the link settings and
    /// the link faults (`disconnect-on`...); the caller refuses them if it wants to.
    public convenience init(configuration: SimulatorConfiguration, transport: NordicSerialDFUTransport = .uart,
                            mtu: Int? = nil) {
        self.init(publicKeyDER: configuration.publicKey?.der, resumePolicy: configuration.resumePolicy,
                  flash: configuration.flash, failingCommands: configuration.faults.busyCommands,
                  bootTime: configuration.timing.boot, transport: transport, mtu: mtu)
    }

    /// `Nordic Secure DFU bootloader (serial UART)`.
    public var name: String { "Nordic Secure DFU bootloader (\(transport.name))" }

    /// A byte stream, over either transport.
    public var wireKind: WireKind { .stream }

    /// False from the reset until the bootloader has booted: a UART loses what arrives, a USB
    /// port is gone.
    public var isRunning: Bool { !bootloader.cycle.isBooting }

    /// How far the device got with `target` (the `.bin` sent): activated, validated and
    /// waiting for the reset, whole in the bank, or part of it.
    public func stage(of target: TargetFirmware) -> FirmwareStageReport {
        bootloader.stage(of: target)
    }

    /// Whether the SLIP decoder is stuck on a frame that filled its buffer (until a reset).
    package var isDecoderStuck: Bool { receiver.state == .bufferFull }

    // MARK: - Requests

    public func receive(_ bytes: [UInt8], at time: Duration) -> [WireDeviceOutput] {
        guard hears(at: time) else {
            if isRunning { ignoredByteCount += bytes.count }
            return []
        }
        let ignoredBefore = receiver.ignoredByteCount
        var outputs: [WireDeviceOutput] = []
        for event in receiver.receive(bytes) {
            switch event {
            case let .discarded(frame):
                discardedFrames.append(frame)
            case let .packet(packet):
                // A request that reset the bootloader (ABORT) or closed the UART leaves the
                // frames after it in the same bytes unheard.
                if hears(at: time) { outputs += handle(packet, at: time) }
            }
        }
        ignoredByteCount += receiver.ignoredByteCount - ignoredBefore
        return outputs
    }

    /// Whether the transport passes what arrives at `time` on: the bootloader runs, has not
    /// reset yet, and (UART) has not closed the transport.
    private func hears(at time: Duration) -> Bool {
        guard isRunning else { return false }
        if let reset = bootloader.cycle.deadline, bootloader.cycle.isResetDue, reset <= time { return false }
        if let closed = transportClosedAt, closed <= time { return false }
        return true
    }

    /// One decoded request (opcode first): the bootloader logic handles it, the transport
    /// serializes its answer.
    private func handle(_ packet: [UInt8], at time: Duration) -> [WireDeviceOutput] {
        guard let first = packet.first else { return [] }
        let opcode = SecureDFUOpcode(rawValue: first)
        let outputs = opcode == .objectWrite
            ? bootloader.receiveWrite(handle: NordicSecureDFUDevice.packetHandle, value: Array(packet.dropFirst()), at: time)
            : bootloader.receiveWrite(handle: NordicSecureDFUDevice.controlPointHandle, value: packet, at: time)
        let resets = outputs.contains { $0.pdu == .terminate }
        var answers: [WireDeviceOutput] = []
        for output in outputs {
            switch output.pdu {
            case let .notification(_, value):
                if opcode == .abort, resets { continue }  // reset before its response is sent
                let answer = NordicSerialResponse.serialized(value, request: packet, mtu: mtu)
                lastAnswerAt = max(lastAnswerAt, output.readyAt)
                answers.append(WireDeviceOutput(bytes: encoder.encode(answer), readyAt: lastAnswerAt))
            case .terminate:
                // nrf_dfu.c closes the transports on DFU_COMPLETED / DFU_ABORTED.
                if transport.closeStopsListening { transportClosedAt = output.readyAt }
            default:
                break
            }
        }
        return answers
    }

    // MARK: - Time

    public var nextTimer: Duration? { bootloader.nextTimer }

    public func fireTimers(at time: Duration) -> [WireDeviceEvent] {
        var events: [WireDeviceEvent] = []
        // A boot of no length ends at the reset's own time: run everything due by `time`.
        while let due = bootloader.nextTimer, due <= time {
            for case let .reset(reason) in bootloader.fireTimers(at: due) {
                restartTransport()
                events.append(.reset(reason: reason))
            }
        }
        return events
    }

    public func powerCycle(at time: Duration) {
        bootloader.powerCycle(at: time)
        restartTransport()
    }

    public func shiftClock(by offset: Duration) {
        bootloader.shiftClock(by: offset)
        transportClosedAt = transportClosedAt.map { $0 + offset }
        lastAnswerAt += offset
    }

    /// RAM is lost at a reset: the transport starts again with an empty decoder.
    private func restartTransport() {
        receiver = NordicSerialSLIPReceiver(bufferLength: mtu)
        transportClosedAt = nil
    }
}
