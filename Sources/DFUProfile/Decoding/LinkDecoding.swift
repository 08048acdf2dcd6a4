import DFUBytes

extension ProfileDecoder {
    static let linkKeys = ["framing", "line-length", "buffer", "idle-timeout", "carries", "answers", "baud", "port"]

    /// `links: { serial: {...}, udp: {...} }`: how the profile's messages are carried where
    /// there is no GATT. Read after `characteristics`, whose names it refers to.
    func decodeLinks(_ node: ProfileNode) -> [WireLinkKind: WireLinkSpec] {
        guard let map = context.mapping(node, "'links'", keys: WireLinkKind.allCases.map(\.rawValue)) else { return [:] }
        var links: [WireLinkKind: WireLinkSpec] = [:]
        for kind in WireLinkKind.allCases {
            if let entry = map.optional(kind.rawValue), let spec = decodeLink(entry, kind: kind) { links[kind] = spec }
        }
        return links
    }

    private func decodeLink(_ node: ProfileNode, kind: WireLinkKind) -> WireLinkSpec? {
        let what = "'links.\(kind.rawValue)'"
        guard let map = context.mapping(node, what, keys: Self.linkKeys) else { return nil }
        let framing = map.required("framing", context).flatMap { node -> WireFramingKind? in
            let allowed = WireFramingKind.allowed(on: kind)
            return context.choice(node, "'framing' of \(what)", cases: allowed)
        }
        let lineLength = linkOption(map, "line-length", what, only: framing == .smpConsole, framing: framing) {
            context.int($0, "'line-length' of \(what)", range: 16...65535)
        }
        let idleTimeout = linkOption(map, "idle-timeout", what, only: framing == .smpRaw, framing: framing) {
            context.duration($0, "'idle-timeout' of \(what)")
        }
        let baud = linkOption(map, "baud", what, only: kind == .serial, framing: nil) {
            context.int($0, "'baud' of \(what)", range: 50...12_000_000)
        }
        let port = linkOption(map, "port", what, only: kind == .udp, framing: nil) {
            context.int($0, "'port' of \(what)", range: 1...65535)
        }
        let buffer = context.optional(map.optional("buffer")) { context.int($0, "'buffer' of \(what)", range: 16...1 << 20) }
        let answers = map.required("answers", context).flatMap { node in
            context.string(node, "'answers' of \(what)").flatMap {
                reference($0, at: node, kind: "characteristic", section: "characteristics", known: definedCharacteristics)
            }
        }
        let carries = map.required("carries", context).flatMap { decodeCarriedWrites($0, what) }
        guard let framing, let lineLength, let idleTimeout, let baud, let port, let buffer, let answers, let carries
        else { return nil }
        return WireLinkSpec(kind: kind, framing: framing, lineLength: lineLength ?? WireLinkSpec.defaultLineLength,
                            buffer: buffer, idleTimeout: idleTimeout ?? (framing == .smpRaw ? .milliseconds(100) : nil),
                            carries: carries, answers: answers, baud: baud, port: port, location: node.location)
    }

    /// `carries: { control: {}, packet: { prefix: "08" } }`.
    private func decodeCarriedWrites(_ node: ProfileNode, _ what: String) -> [WireLinkSpec.CarriedWrite]? {
        guard let entries = context.namedEntries(node, "'carries' of \(what)") else { return nil }
        if entries.entries.isEmpty {
            context.error("'carries' of \(what) must name at least one characteristic whose writes the link carries",
                          at: node.location)
            return nil
        }
        var carried: [WireLinkSpec.CarriedWrite] = []
        var failed = false
        for entry in entries.entries {
            guard reference(entry.key, at: entry.keyNode, kind: "characteristic", section: "characteristics",
                            known: definedCharacteristics) != nil else { failed = true; continue }
            var prefix: [UInt8] = []
            if !entry.value.isNull {
                guard let options = context.mapping(entry.value, "'carries.\(entry.key)' of \(what)", keys: ["prefix"])
                else { failed = true; continue }
                if let prefixNode = options.optional("prefix") {
                    guard let text = context.string(prefixNode, "'prefix'"), let bytes = [UInt8](hex: text) else {
                        context.error("'prefix' of \(what) must be hex bytes such as \"08\"", at: prefixNode.location)
                        failed = true
                        continue
                    }
                    prefix = bytes
                }
            }
            carried.append(WireLinkSpec.CarriedWrite(characteristic: entry.key, prefix: prefix))
        }
        return failed ? nil : carried
    }

    /// A key that means something only for one framing or link kind: refused elsewhere with
    /// what it belongs to. `.some(nil)` when absent.
    private func linkOption<Value>(_ map: MappingReader, _ key: String, _ what: String, only allowed: Bool,
                                   framing: WireFramingKind?, _ decode: (ProfileNode) -> Value?) -> Value?? {
        guard let node = map.optional(key) else { return .some(nil) }
        guard allowed else {
            let owner = switch key {
            case "line-length": "the smp-console framing"
            case "idle-timeout": "the smp-raw framing"
            case "baud": "links.serial"
            default: "links.udp"
            }
            if framing != nil || key == "baud" || key == "port" {
                context.error("'\(key)' of \(what) belongs to \(owner) only", at: node.location)
            }
            return nil
        }
        return context.optional(node, decode)
    }
}
