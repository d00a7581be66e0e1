import Foundation
import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// What one batch of ``Ledger/executeBatches(_:)`` writes as one journal frame.
enum BatchSource {
    /// Commands validated against the head, their texts entered from `texts` (nil: the
    /// ledger's own: the commands' strings, or none on a keyless ledger). `texts` serves a
    /// batch of one command.
    case commands([Command], texts: EnteredTexts?)
    /// Records a server committed (Docs/Sync.md, "Pull: records"), decoded, to follow sequence
    /// number `after`: folded as they are, not validated again (the server validated them with
    /// the same executor).
    case confirmed([NewRecord], events: [Event], after: UInt64)
}

/// A command in a synced device's outbox: its push form (`CommandAction.syncPushForm`) and the
/// texts it enters as the device sealed them.
package typealias PendingCommand = (command: Command, texts: [EnteredTexts.Entry])

/// A synced device's outbox executed on top of the acknowledged state (``Ledger/showPending(_:version:from:)``).
struct PendingView {
    /// The outbox's commands it covers, in order (those left out as no longer applying included).
    var commandIDs: [CommandID]
    /// The acknowledged state with them applied.
    var state: LedgerState
    /// The store rows their events change.
    var changes: StoreChanges
    /// Their events, numbered on from the acknowledged state's last sequence number
    /// (provisional: the server numbers them when it accepts them): the activity feed's entries.
    var events: [CommittedEvent]
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
    /// this returns (P2: no sealed text leaves the device with a key a crash could lose); keys
    /// made for a command that is rejected are dropped. A ledger opened with unreadable texts is
    /// refused as for a write, and a text is never sealed for an owner whose texts this device
    /// cannot open (a second key for them would split their texts, P2).
    /// - Throws: ``LedgerError/rejected(_:)`` when the command breaks a rule; what writing a key
    ///   throws; ``LedgerError/personalKeys(_:)``; ``LedgerError/closed``.
    /// `command` is validated on top of the head with the device's outbox applied (``showPending(_:version:from:)``).
    package func sealedTexts(of command: Command) async throws(LedgerError) -> [EnteredTexts.Entry] {
        await enterGate()
        defer { gate.leave() }
        try requireWritable()
        let sealing = EnteredTexts.sealing(personalKeys)
        // Nothing is written but a synced device's pulls, acknowledged before they leave the
        // gate: the head is the acknowledged state, and the outbox's view on it is kept.
        let state = unacknowledged.isEmpty ? shownState : applying(pendingCommands, to: head).state
        var executor = CommandExecutor(state: state, limits: options.entityLimits, texts: sealing)
        do {
            try executor.execute(command)
            try requireArchiveReadable()
        } catch {
            personalKeys.discardUnpersisted()
            throw error
        }
        try persistNewKeys(for: [])
        return sealing.recorded
    }

    /// The text keys this device holds, by person (forgotten people have none): what it shares
    /// with its household's other devices, each key sealed under the household's secret
    /// (Docs/Sync.md, "Keys between devices").
    package var heldPersonalKeys: [PersonID: [UInt8]] { personalKeys.snapshot.keys }

    /// How many text keys were set on this ledger since it was opened (made, loaded, adopted):
    /// when it has not moved, ``heldPersonalKeys`` holds no key that is new (O(1), where the
    /// keys themselves are O(people)).
    package var personalKeysSet: UInt64 { personalKeys.keysSet }

    /// Makes keys the household's other devices made durable on this device (P2), and records
    /// people the household forgot whose key this device never held (P3), before the frames
    /// whose texts they open are appended: a forgotten person's key is not taken back, a key already
    /// held is kept.
    /// - Returns: the people for whom this device holds another key: their texts made
    ///   elsewhere do not open here (nothing of theirs is changed).
    /// - Throws: ``LedgerError/storage(_:)`` when the key file cannot be written (no key was
    ///   added); ``LedgerError/closed``.
    package func adoptPersonalKeys(_ keys: [PersonID: [UInt8]], forgotten: [PersonID] = []) async throws(LedgerError) -> [PersonID] {
        await enterGate()
        defer { gate.leave() }
        try requireWritable()
        // A key this device holds is destroyed by the PersonForgotten frame itself, with the
        // texts it folded: a tombstone first would leave them readable in its state without a key.
        let newlyForgotten = forgotten.filter { !personalKeys.hasForgotten($0) && !personalKeys.hasKey(for: $0) }
        if !newlyForgotten.isEmpty { try personalKeys.forget(newlyForgotten) }
        let conflicts = personalKeys.adopt(keys)
        try persistNewKeys(for: [])
        return conflicts
    }

    /// Whether `requester` may add a device acting for `person` at `time`, and until when its
    /// invitation code holds (Docs/Sync.md, "Joining a household"): the invitee of a pending
    /// household invitation, asked by the admin (H6), until the invitation expires; an active
    /// member, asked by themselves or the admin, for 7 days. Judged on the state after the
    /// last acknowledged batch.
    /// - Returns: the household invitation the new device carries out (it accepts it), if any.
    /// - Throws: ``LedgerError/rejected(_:)``: `adminOnly`, `notAMember`, `unknownPerson`.
    package func deviceInvitation(
        for person: PersonID, by requester: PersonID, at time: Timestamp
    ) throws(LedgerError) -> (invitation: InvitationID?, expiresAt: Timestamp) {
        try CommandExecutor(state: head, limits: options.entityLimits, texts: .plain).deviceInvitation(for: person, by: requester, at: time)
    }

    /// Opens a synced device's outbox, creating it when new (`<ledger>/sync-outbox.sqlite`,
    /// sealed with the read side's page key), and marks the ledger as synced: from then on, and
    /// at every later open, a command executed on it directly is refused
    /// (``LedgerError/syncedLedger(_:)``). The caller (`SyncDevice`) owns the store.
    /// - Throws: ``LedgerError/syncedLedger(_:)`` when the file cannot be opened (damaged, another
    ///   key); ``LedgerError/closed``.
    package func openSyncOutbox() throws(LedgerError) -> SyncOutboxStore {
        try requireWritable()
        do throws(StoreError) {
            let outbox = try Self.openSyncOutbox(in: directory, encryption: options.encryption)
            isSynced = true
            return outbox
        } catch {
            throw .syncedLedger("the sync outbox \(LedgerDirectory(directory).syncOutbox) cannot be opened: \(error); \(SyncOutboxStore.holds): restore it from a backup of the ledger folder")
        }
    }

    /// Opens the sync outbox of the ledger in `directory` (creating it when new) with the read
    /// side's page key: the current key's first; after a rotation the outbox is still sealed
    /// with the key it was made under, which an encrypted ledger keeps (its older segments need
    /// it). What ``openSyncOutbox()`` and an audit (`existingOnly`: a file without tables is
    /// damage there, not a new outbox) open it with.
    /// - Throws: the first key's failure when none opens it.
    static func openSyncOutbox(in directory: FilePath, encryption: JournalEncryption?, existingOnly: Bool = false) throws(StoreError) -> SyncOutboxStore {
        let path = LedgerDirectory(directory).syncOutbox.string
        let others = (encryption?.keys ?? [:]).filter { $0.key != encryption?.currentKeyID }.sorted { $0.key > $1.key }
        var firstFailure: StoreError?
        for key in [ReadSide.pageKey(encryption)] + others.map({ LedgerStore.pageKey(derivedFrom: $0.value) }) {
            do {
                return try SyncOutboxStore(path: path, key: key, existingOnly: existingOnly)
            } catch {
                if firstFailure == nil { firstFailure = error }
            }
        }
        throw firstFailure ?? .database(path: path, message: "no key")
    }

    /// Shows `commands` (a synced device's outbox, in order) on top of the acknowledged state in
    /// every read of this ledger (Docs/Sync.md, "Pending on top"): the read models, the queries,
    /// search, reports and observations of the store. Each is executed once on the state it
    /// goes on top of, in order, each as its own batch, its texts opened with this device's keys
    /// (``EnteredTexts/opening(_:with:)``); a command that breaks a rule there (another device
    /// deleted what it edits) is left out, the server will answer it. Commands added behind
    /// those shown before cost their own execution; when the acknowledged state changes (a
    /// pulled page committed) the outbox is executed again on it (O(pending)).
    /// - Parameters:
    ///   - version: the outbox's version (it grows with each change): a list older than the one
    ///     shown is ignored (calls made from concurrent tasks may arrive out of order).
    ///   - source: who numbers the versions (a device, an id of its own); another one starts anew.
    package func showPending(_ commands: [PendingCommand], version: UInt64, from source: UUID) {
        guard !isClosed else { return }
        if pendingVersion.source == source {
            guard version >= pendingVersion.number else { return }
        }
        pendingVersion = (source, version)
        let kept = pendingView.map { view in
            view.commandIDs.count <= commands.count && zip(view.commandIDs, commands).allSatisfy { $0 == $1.command.commandID }
        } ?? false
        if !kept { pendingView = nil }
        pendingCommands = commands
        showPendingOnStore()
        // The store behind (a pull's commit queued): the commit that shows the outbox's rows
        // refreshes what this changed.
        if readSide.store(showing: lastSequenceNumber) == nil { refresher.refreshEverything(through: lastSequenceNumber) }
        refreshObservations()
    }

    /// Hands the store the rows of the outbox's commands on the acknowledged state, for the
    /// coverage that shows it (``LedgerStore/show(_:)``): before a commit to that coverage is
    /// queued, and whenever the outbox changes.
    func showPendingOnStore() {
        guard isSynced, readSide.hasStore else { return }
        let view = pendingShown()
        // The view is dropped whenever `current` changes: it was made on the last sequence number.
        readSide.show(StoreOverlay(base: lastSequenceNumber, changes: view.changes, snapshot: StoreSnapshot(view.state)))
    }

    /// What every read of the ledger shows: the acknowledged state, with a synced device's
    /// outbox on top.
    var shownState: LedgerState { pendingCommands.isEmpty ? current : pendingShown().state }

    /// The outbox executed on top of the acknowledged state as it is now: the view kept when it
    /// was made on this state, extended by the commands added since; otherwise made again.
    func pendingShown() -> PendingView {
        var view = pendingView
            ?? PendingView(commandIDs: [], state: current, changes: StoreChanges(), events: [])
        if view.commandIDs.count < pendingCommands.count {
            let added = applying(pendingCommands.dropFirst(view.commandIDs.count), to: view.state)
            view.state = added.state
            view.changes.formUnion(added.changes)
            view.events += added.events
            view.commandIDs += pendingCommands.dropFirst(view.commandIDs.count).map(\.command.commandID)
        }
        pendingView = view
        return view
    }

    /// Runs `body` with the read models after the last acknowledged batch with the device's
    /// outbox on top (``showPending(_:version:from:)``): what a synced device's screens show.
    /// - Throws: ``LedgerError/closed``, or ``LedgerError/storage(_:)`` when the store's history
    ///   cannot be read.
    package func readPending<Value: Sendable>(_ body: @Sendable (Projections) -> Value) throws(LedgerError) -> Value {
        guard !isClosed else { throw .closed }
        let shown = shownState
        try requireArchiveReadable()
        return body(shown.readModels)
    }

    /// `state` with each pending command executed on top, in order, each as its own batch, its
    /// texts opened with this device's keys (``EnteredTexts/opening(_:with:)``), and the store
    /// rows and events they make; a command that breaks a rule there is left out.
    private func applying(
        _ pending: some Sequence<PendingCommand>, to state: LedgerState
    ) -> (state: LedgerState, changes: StoreChanges, events: [CommittedEvent]) {
        var state = state
        var changes = StoreChanges()
        var events: [CommittedEvent] = []
        for command in pending {
            let first = state.nextSequenceNumber
            var executor = CommandExecutor(state: state, limits: options.entityLimits, texts: .opening(command.texts, with: personalKeys))
            guard (try? executor.execute(command.command)) != nil else { continue }
            // A pending forgetting changes the person's row; their texts go when the server
            // confirms it (their key is destroyed then, P3), not in every read before.
            for (offset, event) in executor.events.enumerated() {
                changes.add(event, sequenceNumber: first + UInt64(offset))
                events.append(CommittedEvent(sequenceNumber: first + UInt64(offset), event: event))
            }
            state = executor.state
        }
        return (state, changes, events)
    }

    /// Appends frames of a server's history (a device's pull, Docs/Sync.md) that follow sequence
    /// number `after`: each as one journal frame, its records as the server committed them,
    /// decoded with this ledger's keys and folded; durable before this returns. Every frame is
    /// decoded before any is written; the caller checked their sequence numbers and chain.
    /// - Returns: the ledger's last sequence number afterwards: on a failure part way, the
    ///   frames before the failing one stay appended, and the error says which.
    /// - Throws: ``LedgerError/codec(_:sequenceNumber:)`` for a record that does not decode
    ///   (nothing is written); ``LedgerError/storage(_:)`` (also when the ledger does not end at
    ///   `after`: another append came first); ``LedgerError/closed``.
    @discardableResult
    package func appendConfirmed(_ frames: [[NewRecord]], after: UInt64) async throws(LedgerError) -> UInt64 {
        var batches: [BatchSource] = []
        var next = after
        for records in frames {
            batches.append(.confirmed(records, events: try Ledger.decode(records, from: next + 1, personalTexts: personalKeys), after: next))
            next += UInt64(records.count)
        }
        guard !batches.isEmpty else { return lastSequenceNumber }
        for outcome in await executeBatches(batches) {
            _ = try outcome.get()
        }
        return lastSequenceNumber
    }

    /// The sequence numbers of the events of `command` when the ledger holds it (a device
    /// retrying a push whose answer was lost finds it here once a pull brought it); nil when it
    /// was never executed here.
    package func sequenceNumbers(ofCommand command: CommandID) throws(LedgerError) -> ClosedRange<UInt64>? {
        guard let first = confirmedQueryState.history.entry(for: command)?.firstSequenceNumber else { return nil }
        var cursor = try eventCursor(from: first)
        var last = first
        while let event = try cursor.next(), event.event.commandID == command { last = event.sequenceNumber }
        return first...last
    }

    /// Where the ledger's record chain (`RecordChain`, Docs/Sync.md) ends: its last sequence
    /// number and the chain after it, reading the journal one frame at a time (O(history):
    /// once when a device or a server's cache is opened).
    package func recordChainEnd() throws(LedgerError) -> (sequenceNumber: UInt64, chain: ChainValue) {
        var end: (sequenceNumber: UInt64, chain: ChainValue) = (0, .genesis)
        try forEachJournalFrame(from: 1) { frame in
            end = (frame.lastSequenceNumber, RecordChain.chain(after: end.chain, records: RecordChain.records(of: frame), from: frame.firstSequenceNumber))
        }
        return end
    }

    /// The journal's frames after sequence number `after` (where the record chain is `chain`),
    /// as they travel: their records and where each leaves the chain. A server reads a push's
    /// new frames with it.
    package func recordFrames(after: UInt64, chain: ChainValue) throws(LedgerError) -> [(records: [NewRecord], first: UInt64, last: UInt64, chain: ChainValue)] {
        var frames: [(records: [NewRecord], first: UInt64, last: UInt64, chain: ChainValue)] = []
        var current = chain
        try forEachJournalFrame(from: after + 1) { frame in
            let records = RecordChain.records(of: frame)
            current = RecordChain.chain(after: current, records: records, from: frame.firstSequenceNumber)
            frames.append((records, frame.firstSequenceNumber, frame.lastSequenceNumber, current))
        }
        guard frames.first.map({ $0.first == after + 1 }) ?? true else {
            throw .storage(.journalFailed(reason: "the journal's frames do not start after \(after), where the chain was asked from"))
        }
        return frames
    }

    /// Calls `body` with each journal frame from the one holding `start` on, one in memory at a time.
    private func forEachJournalFrame(from start: UInt64, _ body: (JournalFrame) -> Void) throws(LedgerError) {
        do {
            try Ledger.reader(of: journal).forEachFrame(from: start) { frame in
                body(frame)
                return true
            }
        } catch let error as LedgerError {
            throw error
        } catch let error as JournalError {
            throw .storage(error)
        } catch {
            throw .storage(.journalFailed(reason: "\(error)"))
        }
    }
}
