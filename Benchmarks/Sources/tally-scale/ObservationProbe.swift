import BenchmarkSupport

/// The observer of a balance screen: a task that waits on a subject's observation (Tally's
/// `ledger.observe`, GRDB's `ValueObservation.values(in:)`) and stamps every value the moment
/// it arrives, before handing it on. The harness reads the stamped values from ``arrivals``, so
/// the time it takes to ask for the next one is not counted.
final class ObservationProbe: Sendable {
    /// A value as the observer received it: the sum of every balance, and when it arrived
    /// (`Stopwatch.now()`).
    struct Arrival: Sendable {
        let balanceSum: Int64
        let arrivedAt: UInt64
    }

    /// The stamped values, in the order they arrived.
    let arrivals: AsyncThrowingStream<Arrival, any Error>
    private let observer: Task<Void, Never>

    /// Starts the observer task on `values`; `balanceSum` reduces a value to the sum of its
    /// balances.
    init<Values: AsyncSequence & Sendable>(
        _ values: Values, balanceSum: @escaping @Sendable (Values.Element) -> Int64
    ) where Values.Element: Sendable {
        let (arrivals, continuation) = AsyncThrowingStream.makeStream(of: Arrival.self)
        self.arrivals = arrivals
        observer = Task {
            do {
                for try await value in values {
                    let arrivedAt = Stopwatch.now()
                    continuation.yield(Arrival(balanceSum: balanceSum(value), arrivedAt: arrivedAt))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }

    /// Stops the observer task (ending the subject's observation).
    func cancel() {
        observer.cancel()
    }
}
