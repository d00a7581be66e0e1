import SystemPackage
import TallyJournal

/// What the files beside the journal prove it held (`JournalEvidence`): the newest checkpoint
/// (written only after the records it covers were synced; its name carries its sequence
/// number) and the personal-key store (written, with the last acknowledged sequence number,
/// before the append that uses a new key). Gathered before the journal is opened, so a
/// truncated, emptied or replaced journal is refused before anything is cut or created.
enum LedgerEvidence {
    /// The strongest evidence in the ledger directory, or nil when nothing proves a record.
    static func gather(checkpoints: CheckpointStore, keys: PersonalKeyRing?) throws(LedgerError) -> JournalEvidence? {
        var pieces: [JournalEvidence] = []
        if let key = keys?.evidence { pieces.append(key) }
        let names: [String]
        do {
            names = try checkpoints.names()
        } catch {
            throw .storage(error)
        }
        // The highest sequence any checkpoint name announces (a stray name proves nothing).
        let numbered = names.compactMap { name in LedgerDirectory.checkpointSequenceNumber(inName: name).map { (name, $0) } }
        if let (newest, sequenceNumber) = numbered.max(by: { $0.1 < $1.1 }) {
            pieces.append(JournalEvidence(
                lastSequenceNumber: sequenceNumber, source: "\(LedgerDirectory.checkpointsName)/\(newest)"))
        }
        return JournalEvidence.strongest(pieces)
    }
}
