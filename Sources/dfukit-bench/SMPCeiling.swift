import DFUBytes
import DFUSimulator

/// The protocol ceiling of the upload in profiles/mcumgr-smp.yaml in the simulator's link
/// model: the schedule of an ideal client that keeps `window` requests in flight, every PDU
/// slot filled, and never waits longer than the protocol makes it.
///
/// In connection events (interval I, S = ATT_MTU-3 bytes per write; the writes' LL fragments
/// fill events by airtime as `LinkSlots` packs them), with the client ready at event 0:
/// - request i (its frame: 8-byte header + CBOR map with `off`, `data` and, in the first,
///   `len` and `sha`) is w_i = ceil(frame/S) writes, queued once its predecessors are queued
///   and the answer to request i - window has arrived (event r[i-window]); queued writes go
///   out in order, as many as fit an event, from the event after they were queued;
/// - the device takes request i when its last write arrives (event a_i), processes requests
///   one at a time (flash write time per byte of data) and answers in the first event after
///   a_i at which it is done: r_i;
/// - the upload ends at the last answer, r[N-1].
/// This is the transfer phase only (`transfer_seconds`): set-up, test, reset and confirm are
/// the same for every mode and are left out, so the rows compare how well each mode uses the
/// link.
struct SMPCeiling {
    var link: LinkSettings
    var flash: FlashTiming
    var window: Int
    var chunkSize: Int

    func minimumTransferSeconds(imageSize: Int) -> Double {
        let payload = link.mtu - 3
        let interval = link.connectionInterval
        var slots = LinkSlots(link)
        var answers: [Int] = []
        var deviceIdle: Duration = .zero
        var offset = 0
        var index = 0
        while offset < imageSize {
            let size = min(chunkSize, imageSize - offset)
            let frame = frameSize(offset: offset, size: size, imageSize: imageSize)
            let queued = index >= window ? answers[index - window] : 0
            var lastWrite = 0
            for start in stride(from: 0, to: frame, by: payload) {
                lastWrite = slots.send(attBytes: 3 + min(payload, frame - start), notBefore: queued + 1)
            }
            deviceIdle = max(deviceIdle, interval * lastWrite) + flash.writePerByte * size
            let ready = Int(((deviceIdle / interval) - 1e-9).rounded(.up))
            answers.append(max(lastWrite + 1, ready))
            offset += size
            index += 1
        }
        return Double(answers.last ?? 0) * Double(interval / .milliseconds(1)) / 1000
    }

    /// The request frame the profile sends for this chunk.
    private func frameSize(offset: Int, size: Int, imageSize: Int) -> Int {
        var entries = [CBORMapEntry(.text("image"), .unsigned(0))]
        if offset == 0 {
            entries.append(CBORMapEntry(.text("len"), .unsigned(UInt64(imageSize))))
        }
        entries.append(CBORMapEntry(.text("off"), .unsigned(UInt64(offset))))
        if offset == 0 {
            entries.append(CBORMapEntry(.text("sha"), .bytes([UInt8](repeating: 0, count: 32))))
        }
        entries.append(CBORMapEntry(.text("data"), .bytes([UInt8](repeating: 0, count: size))))
        return 8 + CBOR.encode(.map(entries)).count
    }
}
