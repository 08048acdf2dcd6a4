import DFUBytes

/// The bootloader's SLIP receiver: the nRF5 SDK's `slip_decode_add_byte`
/// (`components/libraries/slip/slip.c`, the same in SDK 15.0, 16.0 and 17.1), fed one byte at a
/// time by the transport's `on_rx_complete` (`nrf_dfu_serial_uart.c`, `nrf_dfu_serial_usb.c`)
/// into a buffer of `buffer_len` = the transport's MTU bytes. Built on `SLIPDecoder`, which
/// reads good frames the same way and recovers from bad ones sooner; this type adds back the
/// two places where slip.c does not recover:
///
/// - **ESC then END** (`DB C0`): slip.c takes the END as the byte that broke the escape
///   (`SLIP_STATE_CLEARING_INVALID_PACKET`) and then clears up to the *next* END, so the frame
///   after the bad one is lost too. `SLIPDecoder` ends the bad frame at that END; this receiver
///   then skips the bytes up to the next END itself (`State.clearingToNextEnd`). ESC followed by
///   any other byte than 0xDC, 0xDD or END loses only its own frame, in both.
/// - **A frame that fills the buffer**: slip.c checks `current_index == buffer_len` before it
///   looks at the byte and answers `NRF_ERROR_NO_MEM` to it, END included, and nothing but a
///   successful frame resets the index. So a frame of `buffer_len` decoded bytes or more leaves
///   the decoder answering NO_MEM to every later byte: the bootloader hears nothing more until
///   it resets (its 120 s inactivity timer, `NRF_BL_DFU_INACTIVITY_TIMEOUT_MS`, or power).
///   `SLIPDecoder` is given `maximumFrameLength` = `buffer_len - 1` (the longest frame slip.c
///   completes) and reports the longer frame as overlong; this receiver then stays deaf
///   (`State.bufferFull`) until a new receiver replaces it at the reset.
///
/// Not modelled: an empty frame (END right after END). slip.c returns NRF_SUCCESS for it and
/// the transport hands `nrf_dfu_serial_on_packet_received` a zero-length packet whose opcode is
/// whatever the freshly allocated buffer held (a byte of an earlier frame); `SLIPDecoder`
/// ignores it. nrfutil never sends one (it puts no END in front of a frame).
struct NordicSerialSLIPReceiver: Sendable {
    /// Where the receiver is in the byte stream.
    enum State: Sendable, Equatable {
        /// Decoding frames (`SLIP_STATE_DECODING` and `SLIP_STATE_ESC_RECEIVED`).
        case decoding
        /// After ESC END: skipping every byte up to and including the next END
        /// (`SLIP_STATE_CLEARING_INVALID_PACKET` entered on the END).
        case clearingToNextEnd
        /// A frame filled the buffer: every byte is refused (`NRF_ERROR_NO_MEM`) until a reset.
        case bufferFull
    }

    /// What the receiver made of the bytes fed to it.
    enum Event: Sendable, Equatable {
        /// A whole frame's packet, unescaped: opcode first.
        case packet([UInt8])
        /// A frame dropped, and why.
        case discarded(SLIPDiscardedFrame)
    }

    /// The decode buffer's size in bytes (`m_slip.buffer_len`: `UART_SLIP_MTU`, `SLIP_MTU`).
    let bufferLength: Int
    private(set) var state = State.decoding
    /// Bytes that reached no decoder: skipped while clearing, or refused with the buffer full.
    private(set) var ignoredByteCount = 0
    private var decoder: SLIPDecoder

    /// A receiver with a decode buffer of `bufferLength` bytes (at least 2: an opcode and room
    /// for the END check).
    init(bufferLength: Int) {
        precondition(bufferLength >= 2, "a SLIP buffer of \(bufferLength) bytes holds no packet")
        self.bufferLength = bufferLength
        self.decoder = SLIPDecoder(maximumFrameLength: bufferLength - 1)
    }

    /// Feeds the next bytes of the stream and returns the packets and discards they complete,
    /// in order.
    mutating func receive(_ bytes: [UInt8]) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            switch state {
            case .bufferFull:
                ignoredByteCount += 1
            case .clearingToNextEnd:
                ignoredByteCount += 1
                if byte == SLIP.end { state = .decoding }
            case .decoding:
                for output in decoder.feed(CollectionOfOne(byte)) {
                    switch output {
                    case let .frame(packet):
                        events.append(.packet(packet))
                    case let .discarded(frame):
                        events.append(.discarded(frame))
                        switch frame.reason {
                        case .badEscape(byte: SLIP.end): state = .clearingToNextEnd
                        case .badEscape: break  // the decoder skips to the next END, as slip.c does
                        case .overlong: state = .bufferFull
                        }
                    }
                }
            }
        }
        return events
    }
}
