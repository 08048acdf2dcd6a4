import DFUBytes

extension ProfileDecoder {
    static let framingKeys = [
        "header-size", "length-offset", "length-width", "endian", "length-counts", "max-payload", "length-field",
        "checksum", "checksum-in-length",
    ]

    func decodeFramings(_ node: ProfileNode) {
        guard let all = context.namedEntries(node, "'framings'") else {
            context.failedSections.insert("framings")
            return
        }
        for entry in all.entries {
            definedFramings.append(entry.key)
            let what = "framing '\(entry.key)'"
            guard let map = context.mapping(entry.value, what, keys: Self.framingKeys) else { continue }
            let headerSize = map.required("header-size", context)
                .flatMap { context.int($0, "'header-size'", range: 1...64) }
            let offset = map.optional("length-offset").map { context.int($0, "'length-offset'", range: 0...63) } ?? 0
            let widthNode = map.required("length-width", context)
            var width = widthNode.flatMap { context.int($0, "'length-width'", range: 1...4) }
            if let widthNode, let value = width, value == 3 {
                context.error("'length-width' must be 1, 2 or 4, found 3", at: widthNode.location)
                width = nil
            }
            let endian = map.optional("endian").map { context.choice($0, "'endian'", Endianness.self) }
                ?? context.defaultEndianness
            let counts = map.optional("length-counts")
                .map { context.choice($0, "'length-counts'", cases: [LengthHeaderFormat.LengthCounts.payload, .frame]) }
                ?? .payload
            let maximum = map.optional("max-payload")
                .map { context.int($0, "'max-payload'", range: 1...Int(Int32.max)) }
                ?? 65_535
            let lengthField = map.optional("length-field")
                .map { context.choice($0, "'length-field'", cases: [LengthHeaderFormat.LengthField.insert, .overlay]) }
                ?? .insert
            let trailer = decodeTrailer(map, what: what)
            guard let headerSize, let offset, let width, let endian, let counts, let maximum, let lengthField,
                  let trailer else { continue }
            guard offset + width <= headerSize else {
                context.error("the length field (offset \(offset), width \(width)) does not fit in the "
                              + "\(headerSize)-byte header of \(what)", at: entry.value.location)
                continue
            }
            let format = LengthHeaderFormat(headerSize: headerSize, lengthOffset: offset, lengthWidth: width,
                                            endianness: endian, lengthCounts: counts, maximumPayloadLength: maximum,
                                            lengthField: lengthField, trailer: trailer)
            framings[entry.key] = FramingSpec(name: entry.key, format: format, location: entry.keyNode.location)
        }
    }

    /// `checksum: NAME` and `checksum-in-length: BOOL`: `.some(nil)` without a trailer, nil
    /// after an error.
    private func decodeTrailer(_ map: MappingReader, what: String) -> FrameTrailer?? {
        let counted = map.optional("checksum-in-length").map { context.bool($0, "'checksum-in-length'") } ?? false
        guard let node = map.optional("checksum") else {
            if let countedNode = map.optional("checksum-in-length") {
                context.error("'checksum-in-length' needs a 'checksum' in \(what) (e.g. checksum: crc16)",
                              at: countedNode.location)
                return nil
            }
            return .some(nil)
        }
        guard let name = context.string(node, "'checksum'") else { return nil }
        guard let checksum = FrameChecksum.named(name) else {
            let known = FrameChecksumCatalogue.names
            let hint = KeySuggestion.didYouMean(name, in: known) ?? ""
            context.error("unknown checksum '\(name)'" + hint + " (known: \(known.joined(separator: ", ")))",
                          at: node.location)
            return nil
        }
        guard let counted else { return nil }
        return .some(FrameTrailer(checksum: checksum, countedInLength: counted))
    }
}
