import SystemPackage
import TallyJournal
import TallyStore

/// What the files beside the journal prove it held (`JournalEvidence`): the checkpoint in the
/// read-side store (written only after the records it covers were synced) and the personal-key
/// store (written, with the last acknowledged sequence number, before the append that uses a
/// new key). Gathered before the journal is opened, so a truncated, emptied or replaced journal
/// is refused before anything is cut or created.
enum LedgerEvidence {
    /// The strongest evidence of `store`'s checkpoint (nil: no store, or one that cannot be
    /// read, which proves nothing), `keys`, and the checkpoint files an older version left in
    /// `layout`'s `checkpoints/` (until a writer's open removes them), or nil when nothing
    /// proves a record.
    static func gather(store: LedgerStore?, keys: PersonalKeyRing?, layout: LedgerDirectory, fileSystem: any FileSystem) -> JournalEvidence? {
        var pieces: [JournalEvidence] = []
        if let key = keys?.evidence { pieces.append(key) }
        if let legacy = layout.legacyCheckpointSequenceNumber(fileSystem: fileSystem) {
            pieces.append(JournalEvidence(lastSequenceNumber: legacy, source: "\(LedgerDirectory.legacyCheckpointsName)/ (a checkpoint file of an older version)"))
        }
        if let store, let checkpoint = try? Checkpoint.stored(in: store) {
            pieces.append(JournalEvidence(
                lastSequenceNumber: checkpoint.sequenceNumber,
                source: "the checkpoint in \(LedgerDirectory.readSideName)/\(LedgerDirectory.readSideStoreName)"))
        }
        return JournalEvidence.strongest(pieces)
    }

    /// ``gather(store:keys:)`` for a reader that takes no lock: the store of the ledger in
    /// `directory` is opened for it, and closed.
    static func gather(directory: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem, keys: PersonalKeyRing?) -> JournalEvidence? {
        let store = ReadSide.existingStore(in: directory, encryption: encryption, fileSystem: fileSystem)
        defer { store?.close() }
        return gather(store: store, keys: keys, layout: LedgerDirectory(directory), fileSystem: fileSystem)
    }
}
