/// A FIFO lock for the ledger actor: `execute` awaits the journal append while holding it, so
/// actor reentrancy can never let a second batch validate against state the first has not yet
/// committed. Used only from inside the actor, so its plain stored properties are isolated.
struct SerialGate {
    private var isHeld = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Whether the gate is free, taking it if so.
    mutating func tryEnter() -> Bool {
        if isHeld { return false }
        isHeld = true
        return true
    }

    /// Queues a waiter to be resumed when the gate passes to it.
    mutating func enqueue(_ waiter: CheckedContinuation<Void, Never>) { waiters.append(waiter) }

    /// Passes the gate to the next waiter, or frees it.
    mutating func leave() {
        if waiters.isEmpty {
            isHeld = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
