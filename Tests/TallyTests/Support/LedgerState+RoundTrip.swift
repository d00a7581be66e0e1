@testable import Tally
import TallyJournal

extension LedgerState {
    /// This state written as a checkpoint (its own section and its read models') and read back.
    func checkpointRoundTrip() throws -> LedgerState {
        try FoldedState(checkpoint: FoldedState(state: self).checkpoint(fingerprints: [:]), archive: nil).state
    }
}
