import Synchronization

/// Fans committed events out to every `changes` subscriber. Each subscriber is an
/// `AsyncStream` with a bounded buffer (`bufferingNewest(limit)`); a subscriber that stops
/// iterating is removed when its stream terminates.
final class ChangeBroadcaster: Sendable {
    private struct Subscribers: ~Copyable {
        var nextID = 0
        var continuations: [Int: AsyncStream<CommittedEvent>.Continuation] = [:]
        var isFinished = false
    }

    private let subscribers = Mutex(Subscribers())
    private let bufferLimit: Int

    init(bufferLimit: Int) { self.bufferLimit = max(1, bufferLimit) }

    /// A new stream receiving every event committed from now on (the newest `limit` waiting,
    /// by default the ledger's ``LedgerOptions/changesBufferLimit``).
    func subscribe(limit: Int? = nil) -> AsyncStream<CommittedEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: CommittedEvent.self, bufferingPolicy: .bufferingNewest(max(1, limit ?? bufferLimit)))
        let id: Int? = subscribers.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.continuations[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Delivers events to every subscriber, in order.
    func publish(_ events: [CommittedEvent]) {
        let targets = subscribers.withLock { Array($0.continuations.values) }
        for continuation in targets {
            for event in events { continuation.yield(event) }
        }
    }

    /// Ends every stream; later subscribers get a finished stream.
    func finish() {
        let targets = subscribers.withLock { state in
            state.isFinished = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in targets { continuation.finish() }
    }
}
