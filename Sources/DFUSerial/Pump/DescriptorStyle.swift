import DFUWire

/// How a pump reads and writes its descriptor, and what its read failures mean.
package enum DescriptorStyle: Sendable {
    /// A terminal (a serial port, a pseudo-terminal): read(2) and write(2) of a byte stream. A
    /// read that ends (0), or fails with EIO, ENXIO or ENODEV, means the port went away.
    case stream
    /// A connected UDP socket: recv(2) and send(2), one datagram each.
    case connectedDatagram
    /// A bound UDP socket: recvfrom(2) says who sent each datagram; each write names where it
    /// goes (sendto(2)).
    case boundDatagram
}

/// What a pump read.
package enum PumpArrival: Sendable {
    /// Bytes of a stream, or one datagram and who sent it.
    case bytes([UInt8], sender: SocketAddress?)
    /// A failure that leaves the wire open: a UDP socket told that nothing listens (ICMP port
    /// unreachable), which may change once the device is up.
    case failure(WireError)
}
