import Foundation
@testable import Tally
import TallyJournal
import TallyStore

extension LedgerState {
    /// This state written as a checkpoint (its sections, and its history as a store's rows) and
    /// read back whole.
    func checkpointRoundTrip() throws -> LedgerState {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-roundtrip-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try LedgerStore(path: folder + "/store.sqlite")
        defer { store.close() }
        let folded = FoldedState(state: self)
        try store.writeCheckpoint(folded.archiveRows, version: nextSequenceNumber - 1, replacingAll: true, state: folded.checkpoint(fingerprints: [:]).encoded())
        guard let stored = try Checkpoint.stored(in: store) else { throw CheckpointDefect.notACheckpoint }
        return try FoldedState(checkpoint: stored, history: StoreHistory(store: store)).detached().state
    }
}
