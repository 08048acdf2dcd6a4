import Foundation

/// The dashboard's page, style and script, served from the binary (a line PC is often offline:
/// no CDN, no external font). The script draws everything from the snapshots of `/events`; the
/// texts live in `DashboardPage+HTML.swift`, `+CSS.swift` and the `+Script*.swift` files.
public enum DashboardPage {
    /// One of the three files.
    public enum Asset: String, Sendable, CaseIterable {
        /// `/`, text/html.
        case page
        /// `/dashboard.css`, text/css.
        case style
        /// `/dashboard.js`, text/javascript.
        case script

        /// The path it is served at.
        public var path: String {
            switch self {
            case .page: "/"
            case .style: "/dashboard.css"
            case .script: "/dashboard.js"
            }
        }

        /// Its media type.
        public var contentType: String {
            switch self {
            case .page: "text/html; charset=utf-8"
            case .style: "text/css; charset=utf-8"
            case .script: "text/javascript; charset=utf-8"
            }
        }
    }

    /// The text of `asset`.
    public static func text(of asset: Asset) -> String {
        switch asset {
        case .page: html
        case .style: css
        case .script: [scriptCore, scriptTables, scriptCharts, scriptControls].joined(separator: "\n")
        }
    }

    /// The page's own policy: its script and style from this server only, no inline script, no
    /// other origin, no framing.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The answer that serves `asset`.
    public static func response(for asset: Asset) -> HTTPResponse {
        var headers: [(name: String, value: String)] = [("Content-Type", asset.contentType), ("Cache-Control", "no-cache"),
                                                        ("X-Content-Type-Options", "nosniff")]
        if asset == .page {
            headers += [("Content-Security-Policy", contentSecurityPolicy), ("Referrer-Policy", "no-referrer"),
                        ("X-Frame-Options", "DENY")]
        }
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(Data(text(of: asset).utf8)))
    }
}
