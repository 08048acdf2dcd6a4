import DFUProfile

/// Where a chunk loop is in its data: which chunk comes next, and where the device's answers
/// move the loop. One cursor serves the sequential `chunks` loop (`ProcedureMachine`) and the
/// windowed one (`WindowedTransfer`), so every loop option (`from`, `aligned`, `next`) means
/// the same in both.
package struct ChunkCursor: Sendable, Equatable {
    /// One chunk of the data.
    package struct Chunk: Sendable, Equatable {
        /// Its first byte: a multiple of the chunk size in an aligned loop.
        package var offset: Int
        /// The first byte still to send: `offset`, except when a loop starts (or continues)
        /// inside an aligned chunk.
        package var from: Int
        /// One past its last byte.
        package var end: Int
        /// 0 for the first chunk the loop visits.
        package var index: Int
        package var isLast: Bool

        package var size: Int { end - offset }
    }

    /// The device asked three times in a row for an offset that did not move past the chunk it
    /// answered.
    package struct Stalled: Error, Sendable, Equatable {
        package var wanted: Int
    }

    package let count: Int
    package let size: Int
    package let aligned: Bool
    /// The first byte of the next chunk to send.
    package private(set) var position: Int
    private var nextIndex = 0
    private var stalls = 0
    private var answeredOnce = false
    /// Where the device's first answer asked to go on, when that was past the chunk it
    /// answered: it held that much before this loop sent anything (MCUmgr answers the first
    /// chunk of an upload it kept from an earlier connection with its own offset).
    package private(set) var resumedAt: Int?

    /// A cursor over `count` bytes in chunks of `size` (at least 1), starting at `from`.
    package init(count: Int, from: Int, size: Int, aligned: Bool) {
        self.count = count
        self.size = max(1, size)
        self.aligned = aligned
        self.position = min(max(0, from), count)
    }

    package var isFinished: Bool { position >= count }

    /// The next chunk; the cursor moves past it.
    package mutating func next() -> Chunk {
        let start = aligned ? position / size * size : position
        let end = min(start + size, count)
        let chunk = Chunk(offset: start, from: position, end: end, index: nextIndex, isLast: end == count)
        position = end
        nextIndex += 1
        return chunk
    }

    /// The device answered `chunk` and wants to continue at `wanted`: after it (in order,
    /// nothing changes), or elsewhere (the cursor moves there: a device that holds more or less
    /// than the client thought). Three answers in a row that do not move past the answered
    /// chunk's start stop the loop.
    package mutating func answered(_ chunk: Chunk, wants wanted: Int) throws(Stalled) {
        let wanted = min(max(0, wanted), count)
        if !answeredOnce {
            answeredOnce = true
            if wanted > chunk.end { resumedAt = wanted }
        }
        stalls = wanted > chunk.from ? 0 : stalls + 1
        guard stalls < 3 else { throw Stalled(wanted: wanted) }
        if wanted != chunk.end { position = wanted }
    }

    /// Sends again from `offset` (after a timeout), without counting it as the device's wish.
    package mutating func rewind(to offset: Int) {
        position = min(max(0, offset), count)
    }

    /// The chunk variables profiles see (`chunk.offset`, `.from`, `.end`, `.size`, `.data`,
    /// `.index`, `.first`, `.last`).
    package static func record(_ chunk: Chunk, of data: [UInt8]) -> Value {
        .record([
            "offset": .integer(UInt64(chunk.offset)),
            "from": .integer(UInt64(chunk.from)),
            "end": .integer(UInt64(chunk.end)),
            "size": .integer(UInt64(chunk.size)),
            "data": .bytes(Array(data[chunk.offset..<chunk.end])),
            "index": .integer(UInt64(chunk.index)),
            "first": .boolean(chunk.index == 0),
            "last": .boolean(chunk.isLast),
        ])
    }
}
