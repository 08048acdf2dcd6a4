import CCBOR

/// Runs libcbor's streaming decoder (one callback per data item head) and assembles the
/// items into a `CBORValue`. Nothing is allocated by libcbor, so nothing needs freeing, and
/// every error knows its byte offset.
enum CBORDecoder {
    static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        guard !bytes.isEmpty else { throw CBORError(.empty, offset: 0) }
        let builder = CBORValueBuilder(inputLength: bytes.count)
        var callbacks = makeCallbacks()
        let context = Unmanaged.passUnretained(builder).toOpaque()
        let outcome: Result<CBORValue, CBORError> = withExtendedLifetime(builder) {
            bytes.withUnsafeBufferPointer { buffer in
                let base = buffer.baseAddress!
                var offset = 0
                while true {
                    if let value = builder.result {
                        if offset < bytes.count {
                            return .failure(CBORError(.trailingBytes(count: bytes.count - offset), offset: offset))
                        }
                        return .success(value)
                    }
                    guard offset < bytes.count else {
                        return .failure(CBORError(.truncated, offset: builder.innermostOpenItemOffset ?? offset))
                    }
                    builder.itemOffset = offset
                    let step = cbor_stream_decode(base + offset, bytes.count - offset, &callbacks, context)
                    if step.status == CBOR_DECODER_NEDATA {
                        return .failure(CBORError(.truncated, offset: offset))
                    }
                    if step.status != CBOR_DECODER_FINISHED || step.read == 0 {
                        return .failure(CBORError(.malformed, offset: offset))
                    }
                    if let error = builder.error { return .failure(error) }
                    offset += step.read
                }
            }
        }
        return try outcome.get()
    }

    private static func makeCallbacks() -> cbor_callbacks {
        cbor_callbacks(
            uint8: { builder($0).add(.unsigned(UInt64($1))) },
            uint16: { builder($0).add(.unsigned(UInt64($1))) },
            uint32: { builder($0).add(.unsigned(UInt64($1))) },
            uint64: { builder($0).add(.unsigned($1)) },
            negint64: { builder($0).add(.negative($1)) },
            negint32: { builder($0).add(.negative(UInt64($1))) },
            negint16: { builder($0).add(.negative(UInt64($1))) },
            negint8: { builder($0).add(.negative(UInt64($1))) },
            byte_string_start: { builder($0).openIndefiniteString(text: false) },
            byte_string: { builder($0).addString(string($1, $2), text: false) },
            string: { builder($0).addString(string($1, $2), text: true) },
            string_start: { builder($0).openIndefiniteString(text: true) },
            indef_array_start: { builder($0).openArray(count: nil) },
            array_start: { builder($0).openArray(count: $1) },
            indef_map_start: { builder($0).openMap(count: nil) },
            map_start: { builder($0).openMap(count: $1) },
            tag: { builder($0).fail(.unsupportedTag($1)) },
            float2: { builder($0).add(.float(Double($1))) },
            float4: { builder($0).add(.float(Double($1))) },
            float8: { builder($0).add(.float($1)) },
            undefined: { builder($0).fail(.unsupportedUndefined) },
            null: { builder($0).add(.null) },
            boolean: { builder($0).add(.boolean($1)) },
            indef_break: { builder($0).closeIndefinite() }
        )
    }
}

// Free functions: a C callback may not capture context, not even `Self`.
private func builder(_ context: UnsafeMutableRawPointer?) -> CBORValueBuilder {
    Unmanaged<CBORValueBuilder>.fromOpaque(context!).takeUnretainedValue()
}

private func string(_ data: cbor_data?, _ length: Int) -> [UInt8] {
    guard let data, length > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: length))
}

/// Assembles items reported by the streaming decoder, innermost open container last.
final class CBORValueBuilder {
    private enum OpenItem {
        /// `remaining` is nil for an indefinite-length array.
        case array(start: Int, remaining: Int?, elements: [CBORValue])
        /// `remaining` counts entries; nil for an indefinite-length map.
        case map(start: Int, remaining: Int?, entries: [CBORMapEntry], pendingKey: CBORValue?)
        case indefiniteString(start: Int, text: Bool, bytes: [UInt8])
    }

    /// Offset of the item whose head libcbor is decoding now.
    var itemOffset = 0
    private(set) var result: CBORValue?
    private(set) var error: CBORError?
    private var open: [OpenItem] = []
    private let inputLength: Int

    init(inputLength: Int) {
        self.inputLength = inputLength
    }

    var innermostOpenItemOffset: Int? {
        switch open.last {
        case let .array(start, _, _), let .map(start, _, _, _), let .indefiniteString(start, _, _):
            return start
        case nil:
            return nil
        }
    }

    func fail(_ reason: CBORError.Reason) {
        if error == nil { error = CBORError(reason, offset: itemOffset) }
    }

    func add(_ value: CBORValue) {
        guard error == nil else { return }
        if case .indefiniteString = open.last {
            fail(.invalidStringChunk)
            return
        }
        deliver(value)
    }

    func addString(_ bytes: [UInt8], text: Bool) {
        guard error == nil else { return }
        if case .indefiniteString(let start, let isText, var collected) = open.last {
            guard isText == text else { return fail(.invalidStringChunk) }
            open.removeLast()
            collected.append(contentsOf: bytes)
            open.append(.indefiniteString(start: start, text: isText, bytes: collected))
            return
        }
        if text {
            guard let string = String(validating: bytes, as: UTF8.self) else { return fail(.invalidUTF8) }
            deliver(.text(string))
        } else {
            deliver(.bytes(bytes))
        }
    }

    func openIndefiniteString(text: Bool) {
        guard error == nil else { return }
        if case .indefiniteString = open.last { return fail(.invalidStringChunk) }
        open.append(.indefiniteString(start: itemOffset, text: text, bytes: []))
    }

    func openArray(count: Int?) {
        guard error == nil, canNest() else { return }
        if count == 0 { return deliver(.array([])) }
        // Every element takes at least one byte: a longer array cannot be in the input
        // (libcbor hands lengths of 2^63 and more over as negative `Int`s).
        if let count, count < 0 || count > inputLength { return fail(.truncated) }
        var elements: [CBORValue] = []
        if let count { elements.reserveCapacity(count) }
        open.append(.array(start: itemOffset, remaining: count, elements: elements))
    }

    func openMap(count: Int?) {
        guard error == nil, canNest() else { return }
        if count == 0 { return deliver(.map([])) }
        if let count, count < 0 || count > inputLength / 2 { return fail(.truncated) }
        var entries: [CBORMapEntry] = []
        if let count { entries.reserveCapacity(count) }
        open.append(.map(start: itemOffset, remaining: count, entries: entries, pendingKey: nil))
    }

    func closeIndefinite() {
        guard error == nil else { return }
        switch open.last {
        case let .array(_, nil, elements):
            open.removeLast()
            deliver(.array(elements))
        case let .map(_, nil, entries, nil):
            open.removeLast()
            deliver(.map(entries))
        case let .indefiniteString(start, text, bytes):
            open.removeLast()
            if text {
                guard let string = String(validating: bytes, as: UTF8.self) else {
                    error = CBORError(.invalidUTF8, offset: start)
                    return
                }
                deliver(.text(string))
            } else {
                deliver(.bytes(bytes))
            }
        default:
            fail(.unexpectedBreak)
        }
    }

    private func canNest() -> Bool {
        if case .indefiniteString = open.last {
            fail(.invalidStringChunk)
            return false
        }
        guard open.count < CBOR.maximumNestingDepth else {
            fail(.nestingTooDeep(limit: CBOR.maximumNestingDepth))
            return false
        }
        return true
    }

    /// Hands a complete item to the innermost open container, closing every container it
    /// completes, or makes it the result.
    private func deliver(_ value: CBORValue) {
        var value = value
        while let container = open.popLast() {
            switch container {
            case .array(let start, let remaining, var elements):
                elements.append(value)
                if let remaining, remaining == 1 {
                    value = .array(elements)
                    continue
                }
                open.append(.array(start: start, remaining: remaining.map { $0 - 1 }, elements: elements))
                return
            case .map(let start, let remaining, var entries, let pendingKey):
                guard let key = pendingKey else {
                    open.append(.map(start: start, remaining: remaining, entries: entries, pendingKey: value))
                    return
                }
                entries.append(CBORMapEntry(key, value))
                if let remaining, remaining == 1 {
                    value = .map(entries)
                    continue
                }
                open.append(.map(start: start, remaining: remaining.map { $0 - 1 }, entries: entries, pendingKey: nil))
                return
            case .indefiniteString:
                preconditionFailure("strings are completed by closeIndefinite")
            }
        }
        result = value
    }
}
