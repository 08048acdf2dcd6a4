import DFUGATT

/// What happens to the host's scanning, as `ScanFlowMachine` takes it. A wait for one device is
/// named by an ID the host chooses, unique per host.
package enum ScanFlowEvent: Sendable {
    /// A caller starts a scan: earlier results are forgotten.
    case startRequested
    /// The controller accepted LE Set Scan Parameters and LE Set Scan Enable (on).
    case scanningEnabled
    /// A caller stops the scan.
    case stopRequested
    /// One advertising report (legacy or extended) or scan response; `rssi` in dBm, 127 when the
    /// controller cannot tell.
    case reported(HCIAdvertisingReport)
    /// A caller waits for a device `match` accepts, at most `timeout` (a device already heard
    /// counts).
    case waitStarted(ScanFlowMachine.ID, timeout: Duration, match: @Sendable (HCIAdvertisement) -> Bool)
    /// The wait's timer ran out before a device matched.
    case timerFired(ScanFlowMachine.ID)
    /// The waiting task was cancelled: the wait ends as a timeout would.
    case waitCancelled(ScanFlowMachine.ID)
    /// The host closed or lost its controller: every wait ends with nothing found.
    case hostClosed
}

/// One report of an advertisement or scan response, as the scan keeps it.
package struct HCIAdvertisingReport: Sendable, Hashable {
    package var address: DeviceAddress
    package var addressType: HCIAddressType
    package var data: [UInt8]
    package var isScanResponse: Bool
    package var isConnectable: Bool
    package var rssi: Int

    package init(address: DeviceAddress, addressType: HCIAddressType, data: [UInt8], isScanResponse: Bool,
                 isConnectable: Bool, rssi: Int) {
        self.address = address
        self.addressType = addressType
        self.data = data
        self.isScanResponse = isScanResponse
        self.isConnectable = isConnectable
        self.rssi = rssi
    }
}

/// What `ScanFlowMachine` asks the host to do, in the order given.
package enum ScanFlowAction: Sendable, Hashable {
    /// Send LE Set Scan Parameters and LE Set Scan Enable (on); then `.scanningEnabled`.
    case enableScanning
    /// Send LE Set Scan Enable (off).
    case disableScanning
    /// Report `.timerFired(id)` after `duration`.
    case startTimer(ScanFlowMachine.ID, after: Duration)
    case cancelTimer(ScanFlowMachine.ID)
    /// The wait is over: the device found, nil when none was (timeout, cancellation, close).
    case complete(ScanFlowMachine.ID, HCIAdvertisement?)
}
