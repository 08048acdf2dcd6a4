import DFUGATT

extension HCIConnection {
    /// What the controller granted this connection (its LE Connection Complete and Connection
    /// Update Complete, LE Data Length Change, LE PHY Update Complete), against what the host's
    /// `configuration` asked for; the ATT_MTU is the link's to add. `proposedMTU` is what the
    /// ATT client offers.
    package func grant(configuration: HCIHostConfiguration, proposedMTU: Int) -> LinkGrant {
        let asked = configuration.connectionParameters
        var grant = LinkGrant(
            source: .controller, txPHY: LinkGrant.PHY(hciValue: txPHY), rxPHY: LinkGrant.PHY(hciValue: rxPHY),
            txOctets: maxTxOctets, rxOctets: maxRxOctets, txTime: maxTxTime, rxTime: maxRxTime,
            interval: LinkGrant.microseconds(intervalUnits: interval), latency: Int(latency),
            supervisionTimeout: Int(supervisionTimeout) * 10,
            requested: LinkGrant.Request(
                phy: configuration.request2MPHY ? .le2M : nil,
                dataLength: configuration.requestDataLength ? Int(LESetDataLengthCommand(handle: 0).txOctets) : nil,
                mtu: proposedMTU, intervalMin: LinkGrant.microseconds(intervalUnits: asked.intervalMin),
                intervalMax: LinkGrant.microseconds(intervalUnits: asked.intervalMax), latency: Int(asked.latency),
                supervisionTimeout: Int(asked.supervisionTimeout) * 10))
        if let reason = dataLengthRequest.reason("data length extension", command: LESetDataLengthCommand.name) {
            grant.notes.append(reason)
        }
        if let reason = phyRequest.reason("2M PHY", command: LESetPHYCommand.name) { grant.notes.append(reason) }
        if !(asked.intervalMin...asked.intervalMax).contains(interval) {
            grant.notes.append("the interval is not the one asked for: the controller or the device chose it "
                               + "(a device may ask for its own with a connection parameter update)")
        }
        return grant
    }
}
