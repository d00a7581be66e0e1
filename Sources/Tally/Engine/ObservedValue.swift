import Observation
import TallyStore

/// A value from the read side that a SwiftUI view binds to (Observation framework): it follows
/// ``Ledger/observe(_:)`` on the main actor, so ``value`` is the current value and changes once
/// per commit that changed it.
///
/// ```swift
/// @State var balances = ObservedValue(ledger) { db in try db.walletBalances() }
/// ...
/// List(balances.value ?? [], id: \.walletID) { ... }
/// ```
@MainActor @Observable
public final class ObservedValue<Value: Equatable & Sendable> {
    /// The latest value; `nil` until the first one arrived.
    public private(set) var value: Value?
    /// Why the observation ended, if it failed (the value then stays the last one): a
    /// ``LedgerError``, or an error `compute` threw of its own.
    public private(set) var failure: (any Error)?
    @ObservationIgnored private var task: Task<Void, Never>?

    /// Starts observing `compute` on `ledger`.
    public init<Failure: Error>(_ ledger: Ledger, _ compute: @escaping @Sendable (LedgerStore) throws(Failure) -> Value) {
        task = Task { [weak self] in
            do {
                for try await value in await ledger.observe(compute) { self?.value = value }
            } catch {
                self?.failure = error
            }
        }
    }

    isolated deinit { task?.cancel() }
}
