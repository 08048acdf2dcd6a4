import DFUSimulator

/// The protocol ceiling of profiles/nordic-secure-dfu.yaml in the simulator's link model: the
/// shortest time any client could take for one image, given the protocol's mandatory round
/// trips and the bootloader's flash timing.
///
/// Counting in connection events (interval I, S = ATT_MTU-3 bytes a packet; packets fill
/// events by airtime as `LinkSlots` packs them, P of them per event), a client that receives what it waited for in event k writes next in event k+1:
/// - a control-point command written with response and answered at once takes 2 events;
/// - streaming n bytes: s = ceil(n/S) packets. Without response and PRN 0, the packets and the
///   Checksum request that follows them go P per event and the answer comes one event later:
///   ceil((s+1)/P) + 1 events. With PRN N, every N packets wait for the receipt:
///   ceil(N/P) + 1 events a group. Written with response, each packet takes 2 events, then
///   Checksum 2 more;
/// - a data object: Create (2 events; the bootloader erases its pages meanwhile), the stream
///   and Checksum, then Execute, which the bootloader answers only once its flash is idle
///   (erase, then writing each packet as it arrives); the last Execute also hashes the image.
/// Before the objects: scan (100 ms), connection (connect delay), discovery (8 intervals),
/// subscribing (2 events), Set PRN (receipts off) and Select command (2 each), the init packet
/// as a command object (Create, stream, Checksum, Execute), Set PRN and Select data (2 each).
struct NordicSecureCeiling {
    var link: LinkSettings
    var flash: FlashTiming
    var prn: Int
    var withResponse: Bool
    static let objectSize = 4096

    func minimumSeconds(imageSize: Int, initPacketSize: Int) -> Double {
        let interval = link.connectionInterval
        var event = 8 + 2       // discovery, then the CCCD write (relative to the link's start)
        event += 2 + 2          // Set PRN, Select command
        event += 2              // Create command object
        event += stream(bytes: initPacketSize).events
        event += 2 + 2 + 2      // Execute command object, Set PRN (receipts back on), Select data
        var flashIdle: Duration = .zero
        var offset = 0
        while offset < imageSize {
            let size = min(Self.objectSize, imageSize - offset)
            // Create: written in event+1; the erase starts then.
            let createAt = interval * (event + 1)
            flashIdle = max(flashIdle, createAt) + flash.pageErase * ((size + flash.pageSize - 1) / flash.pageSize)
            event += 2
            let streamed = stream(bytes: size)
            for (packetEvent, bytes) in streamed.packets {
                flashIdle = max(flashIdle, interval * (event + packetEvent)) + flash.writePerByte * bytes
            }
            event += streamed.events
            offset += size
            // Execute: written in event+1, answered in the first later event when the flash is idle.
            var ready = flashIdle
            if offset == imageSize { ready += flash.hashPerByte * imageSize }
            let readyEvent = Int(((ready / interval) - 1e-9).rounded(.up))
            event = max(event + 2, readyEvent)
        }
        let setup = Double(link.connectDelay / .milliseconds(1)) / 1000 + 0.1
        return setup + Double(event) * (Double(interval / .milliseconds(1)) / 1000)
    }

    /// Events from "ready to stream" to "Checksum answer received", and each packet's event
    /// (relative) and size.
    private func stream(bytes: Int) -> (events: Int, packets: [(Int, Int)]) {
        let payload = link.mtu - 3
        let sizes = stride(from: 0, to: bytes, by: payload).map { min(payload, bytes - $0) }
        var packets: [(Int, Int)] = []
        if withResponse {
            for (index, size) in sizes.enumerated() { packets.append((2 * index + 1, size)) }
            return (2 * sizes.count + 2, packets)
        }
        var slots = LinkSlots(link)
        let group = prn > 0 ? prn : sizes.count + 1
        var event = 0
        var index = 0
        while index < sizes.count {
            let count = min(group, sizes.count - index)
            let isLast = index + count == sizes.count
            // The last group carries the Checksum request too (unless it ends on a receipt).
            let waitsForReceipt = prn > 0 && count == prn
            var last = event + 1
            for slot in 0..<count {
                last = slots.send(attBytes: 3 + sizes[index + slot], notBefore: event + 1)
                packets.append((last, sizes[index + slot]))
            }
            if isLast && !waitsForReceipt { last = slots.send(attBytes: 4, notBefore: event + 1) }
            event = last + 1
            index += count
            if isLast && waitsForReceipt { event += 2 }  // then Checksum on its own
        }
        if sizes.isEmpty { event += 2 }
        return (event, packets)
    }
}
