import SystemPackage

/// What opening a ledger's path did about a restore or reset that a crash (or a kill)
/// interrupted there (``Ledger/recoverInterruptedSwap(at:fileSystem:)``; every opener runs it).
public struct SwapRecovery: Sendable, Hashable, CustomStringConvertible {
    /// The ledger path.
    public var directory: FilePath
    /// The interrupted swap that was finished: `"restore"` or `"reset"`; nil when none was.
    /// Its intent record said the new ledger was complete, so the new ledger is now in place.
    public var finishedOperation: String?
    /// Where the ledger the finished swap replaced is kept (`<name>.replaced-N`).
    public var replacedLedgerKeptAt: FilePath?
    /// Whether a ``LedgerDirectory/restoring`` folder that an interrupted restore or reset left
    /// before it had committed (no intent record) was removed: it was not the ledger, and may
    /// have held a copy of the personal keys (P2). The ledger at the path is unchanged.
    public var removedInterruptedRestore = false

    /// Nothing was pending at `directory`.
    public init(directory: FilePath) { self.directory = directory }

    /// Whether anything was done.
    public var didRecover: Bool { finishedOperation != nil || removedInterruptedRestore }

    /// What was done, for a note to the user; empty when nothing was.
    public var description: String {
        let layout = LedgerDirectory(directory)
        var parts: [String] = []
        if let operation = finishedOperation {
            var text = "finished an interrupted \(operation) (its record \(layout.swapIntent.string) said the new ledger was complete): the new ledger is in place at \(directory.string)"
            if let kept = replacedLedgerKeptAt {
                text += "; the ledger it replaced is kept at \(kept.string) (delete it once you no longer need it: it holds personal keys)"
            }
            parts.append(text)
        }
        if removedInterruptedRestore {
            parts.append("removed \(layout.restoring.string), what an interrupted restore or reset had left before it was complete (the ledger at \(directory.string) is unchanged)")
        }
        return parts.joined(separator: "; ")
    }
}
