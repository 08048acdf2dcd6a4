/// A `GATTLink` that wraps another and changes only some of what it does (traces it, records
/// it, gates it by a lease): what it leaves alone is the wrapped link's.
package protocol LinkWrapper: GATTLink {
    /// The link it wraps.
    var wrapped: any GATTLink { get }
}

extension LinkWrapper {
    package var address: DeviceAddress { wrapped.address }
    package var mtu: Int { wrapped.mtu }
    package var now: Duration { wrapped.now }
    package var linkGrant: LinkGrant? { get async { await wrapped.linkGrant } }
    package func writesCarried() async throws(GATTError) { try await wrapped.writesCarried() }
    package var writesInFlight: Int? { get async { await wrapped.writesInFlight } }
    package var medium: LinkMedium { wrapped.medium }
    package var deviceBuffer: Int? { wrapped.deviceBuffer }
}
