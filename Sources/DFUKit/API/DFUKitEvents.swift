import DFUGATT

/// The events of one operation of the embedding API (a flash, a scan, a command, a batch), as
/// an async sequence whose errors are typed (`DFUKitError`).
///
/// The operation starts when the sequence is made and runs in its own task. Cancelling the
/// task that iterates cancels the operation; the sequence then ends with what the operation
/// says last (a `DFUKitError` of kind `.cancelled` with the report of what the device holds).
/// Dropping the sequence without iterating to its end (a `break`) cancels it too.
/// Iterate it once, from one task.
public struct DFUKitEvents<Element: Sendable>: AsyncSequence, Sendable {
    /// The errors the sequence throws.
    public typealias Failure = DFUKitError

    let run: OperationHandle<Element>

    /// Starts `operation` in a task of its own; it sends events through the channel and
    /// returns normally or throws how it ended. The channel's `next()` waits through the
    /// iterating task's cancellation, so the operation's last word still arrives.
    init(_ operation: @escaping @Sendable (AsyncBuffer<Element, DFUKitError>) async throws(DFUKitError) -> Void) {
        let channel = AsyncBuffer<Element, DFUKitError>()
        let task = Task {
            do throws(DFUKitError) {
                try await operation(channel)
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        run = OperationHandle(channel: channel, task: task)
    }

    /// An iterator over the events.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(run: run) }

    /// Reads the events one by one; cancelling the reading task cancels the operation.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let run: OperationHandle<Element>

        /// The next event, nil at the end; throws how the operation failed.
        public mutating func next() async throws(DFUKitError) -> Element? {
            try await Self.next(run)
        }

        /// The next event, nil at the end; throws how the operation failed.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(DFUKitError) -> Element? {
            try await Self.next(run)
        }

        private static func next(_ run: OperationHandle<Element>) async throws(DFUKitError) -> Element? {
            let result = await withTaskCancellationHandler { () async -> Result<Element?, DFUKitError> in
                do throws(DFUKitError) { return .success(try await run.channel.next()) } catch { return .failure(error) }
            } onCancel: {
                run.task.cancel()
            }
            return try result.get()
        }
    }
}

/// The running operation: its channel and its task, cancelled when nothing refers to it any more.
final class OperationHandle<Element: Sendable>: Sendable {
    let channel: AsyncBuffer<Element, DFUKitError>
    let task: Task<Void, Never>

    init(channel: AsyncBuffer<Element, DFUKitError>, task: Task<Void, Never>) {
        self.channel = channel
        self.task = task
    }

    deinit { task.cancel() }
}
