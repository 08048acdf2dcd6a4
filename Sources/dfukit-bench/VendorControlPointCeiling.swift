import DFUSimulator

/// The protocol ceiling of profiles/vendor-ctrlpt.yaml in the simulator's link model: the
/// shortest time any client could take, given the round trips the protocol makes mandatory.
///
/// Counting in connection events (interval I, S = ATT_MTU-3 bytes per PDU, packets fitting
/// events by airtime as `LinkSlots` packs them):
/// - A client that receives what it waited for in event k writes next in event k+1.
/// - A command whose frame takes n = ceil(F/S) writes with response: write i goes in event
///   k+2i-1 and is acknowledged in k+2i, because each segment must be acknowledged before the
///   next one (the protocol writes with response) and the device answers no earlier than the
///   next event.
/// - The device processes the command once its last segment arrived (event k+2n-1), taking
///   c seconds; its response frame (m = ceil(R/S) notifications, as many per event as fit its airtime) starts
///   in the first event at least max(I, c) later and ends in the event its last notification fits.
///   So one exchange takes 2n - 1 + max(1, ceil(c/I)) + ceil(m/P) - 1 events.
/// - Before the first command: the scan (100 ms), the connection (connect delay), discovery
///   (8 intervals) and the notification subscription (a write with response: 2 events).
/// Commands of a fresh upload: status, start, one data command per 4096-byte chunk (the
/// device's max_chunk: the largest any client may send), verify, activate. The device's
/// processing time per command comes from its flash timing (write per byte, erase per page
/// entered, hash per byte for verify), as in `VendorControlPointDevice`.
struct VendorControlPointCeiling {
    var link: LinkSettings
    var flash: FlashTiming
    static let chunk = 4096
    static let header = 2

    func minimumSeconds(imageSize: Int) -> Double {
        let interval = Double(link.connectionInterval / .milliseconds(1)) / 1000
        var events = 8 + 2  // discovery, then the CCCD write
        // (frame bytes, processing seconds, response frame bytes)
        var exchanges: [(Int, Double, Int)] = [
            (Self.header + 1, 0, Self.header + 42),            // status
            (Self.header + 41, 0, Self.header + 4),            // start
        ]
        var offset = 0
        while offset < imageSize {
            let size = min(Self.chunk, imageSize - offset)
            let cost = Double(flash.writeCost(offset: offset, count: size) / .milliseconds(1)) / 1000
            exchanges.append((Self.header + 5 + size, cost, Self.header + 6))  // data
            offset += size
        }
        let hash = Double(flash.hashPerByte * imageSize / .milliseconds(1)) / 1000
        exchanges.append((Self.header + 1, hash, Self.header + 38))          // verify
        exchanges.append((Self.header + 1, 0, Self.header + 2))              // activate
        for (frame, cost, response) in exchanges {
            events += exchangeEvents(frame: frame, processing: cost, response: response, interval: interval)
        }
        let setup = 0.1 + Double(link.connectDelay / .milliseconds(1)) / 1000
        return setup + Double(events) * interval
    }

    private func exchangeEvents(frame: Int, processing: Double, response: Int, interval: Double) -> Int {
        let payload = link.mtu - 3
        let writes = (frame + payload - 1) / payload
        let processingEvents = max(1, Int((processing / interval - 1e-9).rounded(.up)))
        var slots = LinkSlots(link)
        var responseEvents = 1
        for start in stride(from: 0, to: response, by: payload) {
            responseEvents = slots.send(attBytes: 3 + min(payload, response - start), notBefore: 1)
        }
        return 2 * writes - 1 + processingEvents + responseEvents - 1
    }
}
