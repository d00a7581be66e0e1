import TallyJournal
import TallyModel

/// What one batch of ``Ledger/executeBatches(_:)`` writes as one journal frame.
enum BatchSource {
    /// Commands validated against the head, their texts entered from `texts` (nil: the
    /// ledger's own: the commands' strings, or none on a keyless ledger). `texts` serves a
    /// batch of one command.
    case commands([Command], texts: EnteredTexts?)
    /// Records a server committed (Docs/Sync.md, "Pull: records"): decoded and folded as they
    /// are, not validated again (the server validated them with the same executor).
    case confirmed([NewRecord])
}

/// The engine's side of sync between a household's devices (issue 32, Docs/Sync.md): what a
/// server's keyless ledger and a device's ledger do beyond ``execute(_:)-([Command])``.
extension Ledger {
    /// The server's execution: each command as its own batch (its own frame), its texts entered
    /// from the entries its device sealed (``EnteredTexts/replaying(_:)``), one wait for
    /// durability for all, as ``execute(each:)`` does.
    /// - Parameter sealedTexts: one list of entries per command.
    package func execute(each commands: [Command], sealedTexts: [[EnteredTexts.Entry]]) async throws(LedgerError) -> [Result<[EventPosition], LedgerError>] {
        try checkCommandCount(commands.count)
        guard sealedTexts.count == commands.count else {
            throw .violation(.sealedTextsMismatch, "\(commands.count) command(s) came with \(sealedTexts.count) list(s) of sealed texts; each command needs its own")
        }
        return await executeBatches(zip(commands, sealedTexts).map { command, entries in
            .commands([command], texts: .replaying(entries))
        })
    }

    /// A device's half of a push: validates `command` against the head as ``execute(_:)-(Command)``
    /// would, without writing it, and returns the texts it enters, each kept or sealed with its
    /// owner's key (``EnteredTexts/sealing(_:)``). A key made for a new owner is durable before
    /// this returns (P2: no sealed text leaves the device with a key a crash could lose).
    /// - Throws: ``LedgerError/rejected(_:)`` when the command breaks a rule; what writing a key
    ///   throws; ``LedgerError/closed``.
    package func sealedTexts(of command: Command) async throws(LedgerError) -> [EnteredTexts.Entry] {
        await enterGate()
        defer { gate.leave() }
        guard !isClosed else { throw .closed }
        if let failure { throw .storage(failure) }
        let sealing = EnteredTexts.sealing(personalKeys)
        var executor = CommandExecutor(state: head, limits: options.entityLimits, texts: sealing)
        try executor.execute(command)
        try persistNewKeys(for: [])
        return sealing.recorded
    }

    /// Appends frames of a server's history (a device's pull, Docs/Sync.md): each as one journal
    /// frame, its records as the server committed them, decoded with this ledger's keys and
    /// folded; durable before this returns. The records continue the ledger's history: the
    /// caller checked their sequence numbers and chain.
    /// - Throws: ``LedgerError/codec(_:sequenceNumber:)`` for a record that does not decode
    ///   (nothing of its frame is written); ``LedgerError/storage(_:)``; ``LedgerError/closed``.
    package func appendConfirmed(_ frames: [[NewRecord]]) async throws(LedgerError) {
        guard !frames.isEmpty else { return }
        for outcome in await executeBatches(frames.map { .confirmed($0) }) {
            _ = try outcome.get()
        }
    }

    /// The journal's frames from the one holding `start` on (the records a server sends).
    package func journalFrames(from start: UInt64) throws(LedgerError) -> [JournalFrame] {
        var frames: [JournalFrame] = []
        do {
            try Ledger.reader(of: journal).forEachFrame(from: start) { frame in
                frames.append(frame)
                return true
            }
        } catch let error as JournalError {
            throw .storage(error)
        } catch {
            throw .storage(.journalFailed(reason: "\(error)"))
        }
        return frames
    }
}
