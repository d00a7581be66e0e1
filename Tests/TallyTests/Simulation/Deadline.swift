import Synchronization

/// Runs `work` in a new task and returns its result, or nil when it has not finished within
/// `seconds` (a hang: the task is left behind, so the caller can report the seed instead of
/// hanging the test run).
func withDeadline<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () async -> T) async -> T? {
    let gate = DeadlineGate<T>()
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        gate.install(continuation)
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            gate.resume(with: nil)
        }
        Task {
            let value = await work()
            gate.resume(with: value)
            timer.cancel()
        }
    }
}

/// Resumes one continuation exactly once, with whichever result comes first.
private final class DeadlineGate<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T?, Never>?>(nil)

    func install(_ waiter: CheckedContinuation<T?, Never>) {
        continuation.withLock { $0 = waiter }
    }

    func resume(with value: T?) {
        let waiter = continuation.withLock { slot in
            defer { slot = nil }
            return slot
        }
        waiter?.resume(returning: value)
    }
}
