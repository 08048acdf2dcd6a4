import DFUATT
import DFUGATT
import DFUHCI

/// The ATT fixed channel of an HCI connection as the ATT client's bearer.
final class HCIATTBearer: ATTBearer {
    let channel: HCIATTChannel
    let mtu: Int

    init(channel: HCIATTChannel, mtu: Int) {
        self.channel = channel
        self.mtu = mtu
    }

    func send(_ pdu: [UInt8]) async throws(GATTError) {
        do {
            try await channel.send(pdu)
        } catch {
            throw error.gattError(address: channel.peerAddress)
        }
    }

    func sent() async throws(GATTError) {
        do {
            try await channel.waitUntilSent()
        } catch {
            throw error.gattError(address: channel.peerAddress)
        }
    }

    func receive() async throws(GATTError) -> [UInt8] {
        if let pdu = await channel.receive() { return pdu }
        let reason = channel.disconnection
        throw GATTError(.disconnected, address: channel.peerAddress.description,
                        detail: reason.map { "\($0)" } ?? "the link is gone")
    }

    func close() async {
        try? await channel.disconnect()
    }
}
