import DFUBytes
import DFUGATT
import DFUPackage

/// A Zephyr application with an MCUmgr SMP server over BLE and MCUboot (`sim:mcumgr-smp`).
///
/// Requests arrive as writes without response (write requests work too) on one
/// characteristic; a frame longer than one write spans several writes and is reassembled by
/// the header's length. Answers leave as notifications of at most ATT_MTU-3 bytes. The device
/// handles one request at a time (`requestOverhead` plus flash time each); at most `buf_count`
/// requests may wait or be processed, further ones are dropped. SMP state (slots, an
/// unfinished upload) survives disconnects and resets.
public final class SMPServerDevice: SimulatedPeripheral {
    public static let serviceUUID = BluetoothUUID(string: "8D53DC1D-1DB7-4CD3-868B-8A527460AA84")!
    public static let characteristicUUID = BluetoothUUID(string: "DA2E7828-FBCE-4E01-AE9E-261174997C48")!
    public static let frameFormat = LengthHeaderFormat(headerSize: 8, lengthOffset: 2, lengthWidth: 2, endianness: .big)
    static let characteristicHandle: UInt16 = 3
    /// Command names for `disconnect-on` / `disconnect-after-command`: the profile's where a
    /// request maps to one (`image_test`: an image state write with `confirm` false;
    /// `image_confirm`: with `confirm` true, with or without a hash).
    public static let commandNames = ["echo", "reset", "params", "image_list", "image_test", "image_confirm",
                                      "upload", "image_erase"]
    /// The image the device runs when it leaves the factory: version 1.0.0, 48 KiB.
    public static let factoryImage = SMPSlotImage(bytes: SimulatedMCUbootImage.make(
        payload: (0..<49_152).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) },
        version: MCUbootImageVersion(major: 1, minor: 0, revision: 0, build: 0)))!

    public let advertisement: Advertisement
    public private(set) var server: SMPServer
    private var reassembler = Reassembler(format: SMPServerDevice.frameFormat)
    private var mtu = 23
    private var busyUntil: Duration = .zero
    /// When each accepted request's processing ends, oldest first.
    private var processingEnds: [Duration] = []
    private var rebootPending = false
    /// Requests dropped because `buf_count` requests were already waiting.
    public private(set) var droppedRequestCount = 0
    public private(set) var rebootCount = 0

    public init(address: DeviceAddress, name: String = "Zephyr SMP", settings: SMPServerSettings = SMPServerSettings(),
                factoryImage: SMPSlotImage = SMPServerDevice.factoryImage) {
        self.advertisement = Advertisement(address: address, name: name, serviceUUIDs: [Self.serviceUUID], rssi: -45)
        self.server = SMPServer(settings: settings, factoryImage: factoryImage)
    }

    public var services: [GATTService] {
        [GATTService(uuid: Self.serviceUUID, characteristics: [
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.characteristicUUID,
                               valueHandle: Self.characteristicHandle,
                               properties: [.writeWithoutResponse, .write, .notify]),
        ])]
    }

    public var slots: MCUbootSlots { server.slots }

    public func connectionStarted(mtu: Int, at time: Duration) {
        self.mtu = mtu
        reassembler.reset()
    }

    public func connectionEnded(at time: Duration) {
        // A half-received frame and queued answers are lost; slots and the upload are not.
        reassembler.reset()
        processingEnds.removeAll()
        guard rebootPending else { return }
        rebootPending = false
        rebootCount += 1
        busyUntil = .zero
        server.boot()
    }

    public func readValue(handle: UInt16) -> [UInt8]? { nil }

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard handle == Self.characteristicHandle, !rebootPending else { return [] }
        let frames: [[UInt8]]
        do {
            frames = try reassembler.append(value)
        } catch {
            reassembler.reset()  // cannot happen with a 16-bit length; drop the garbage
            return []
        }
        var outputs: [PeripheralOutput] = []
        for frame in frames {
            processingEnds.removeAll { $0 <= time }
            guard processingEnds.count < server.settings.bufferCount else {
                droppedRequestCount += 1
                continue
            }
            guard let outcome = server.handle(frame: frame) else { continue }
            busyUntil = max(busyUntil, time) + outcome.cost
            processingEnds.append(busyUntil)
            outputs += notifications(outcome.response, readyAt: busyUntil, reboot: outcome.reboot)
            if outcome.reboot {
                rebootPending = true
                break
            }
        }
        return outputs
    }

    private func notifications(_ frame: [UInt8], readyAt: Duration, reboot: Bool) -> [PeripheralOutput] {
        let segments = Segmenter.segments(of: frame, maximumSize: mtu - 3)
        return segments.enumerated().map { index, segment in
            PeripheralOutput(pdu: .notification(handle: Self.characteristicHandle, value: segment), readyAt: readyAt,
                             disconnectAfterSending: reboot && index == segments.count - 1)
        }
    }
}
