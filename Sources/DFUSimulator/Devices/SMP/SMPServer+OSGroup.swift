import DFUBytes

/// Group 0 (OS management): echo, reset, MCUmgr parameters.
extension SMPServer {
    /// Command 0: `{d: text}` -> `{r: text}`.
    func echo(_ body: CBORValue) -> SMPHandled {
        guard let text = body["d"]?.textValue else { return SMPHandled(reply: .failure(.invalidArgument)) }
        return SMPHandled(reply: .success([CBORMapEntry("r", .text(text))]))
    }

    /// Command 5: answers `{}` and arms the reset timer (`os_mgmt_reset`); the device reboots
    /// later (and MCUboot swaps what is marked).
    func reset() -> SMPHandled {
        SMPHandled(reply: .success([]), armsReset: true)
    }

    /// Command 6: `{buf_size, buf_count}`.
    func parameters() -> SMPHandled {
        SMPHandled(reply: .success([
            CBORMapEntry("buf_size", CBORValue(integer: settings.bufferSize)),
            CBORMapEntry("buf_count", CBORValue(integer: settings.bufferCount)),
        ]))
    }
}
