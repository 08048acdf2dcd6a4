import DFUGATT

extension ATTGATTLink {
    /// What the transport's `grantReporter` says, with this link's ATT_MTU; nil without one.
    package var linkGrant: LinkGrant? {
        get async {
            guard let grantReporter, var grant = await grantReporter() else { return nil }
            grant.mtu = mtu
            return grant
        }
    }
}
