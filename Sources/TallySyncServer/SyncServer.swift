import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyServer
import TallySync
import TallySyncWire

/// The server's engine (Docs/Sync.md, "Validation state per household"): validates what devices
/// push with the executor a device runs, on a keyless ledger per household, and appends the
/// result to the household's history in PostgreSQL (``HouseholdHistory``).
///
/// Per household it keeps a ledger cache in `cacheDirectory/<household id>`: the same ledger
/// folder a device has, opened keyless (`LedgerOptions.keyless`: personal texts stay sealed, a
/// command enters texts only from its device's sealed entries). Under the household's row lock
/// an append first brings the cache up to the committed history (the frames other server
/// processes appended since), checking every frame's sequence numbers and chain, then
/// executes. The cache is only a cache: one that is ahead of the history (a commit that failed
/// after it wrote) or disagrees with its chain is dropped and rebuilt from the history, never
/// served.
public actor SyncServer {
    /// The household's history in PostgreSQL.
    public let history: HouseholdHistory
    private let cacheDirectory: FilePath
    /// The server's clock, in milliseconds since 1970: when invitation codes expire.
    private let clock: @Sendable () -> Int64
    private var caches: [UUID: HouseholdCache] = [:]
    /// The households some pull of this process reads, with the newest head it knows of (from
    /// its own pushes and every server process's commit notifications) and the pulls waiting
    /// for a head past their cursor.
    private var watched: [UUID: Watch] = [:]
    /// Hears the commits of every server process on the database (``HouseholdHistory/listenForCommits(listening:_:)``),
    /// started by the first pull that waits.
    private var listener: Task<Void, Never>?
    /// Whether the listener hears commits now; while it does not, a waiting pull reads
    /// PostgreSQL every ``databasePollInterval``.
    private var listening = false
    /// Set by ``close()``: no listener starts again.
    private var closed = false

    /// A household that pulls of this process read.
    private struct Watch {
        var pulls = 0
        var head: UInt64 = 0
        var waiters: [UUID: (after: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
    }

    /// One household's ledger cache and where its record chain ends.
    private struct HouseholdCache {
        let ledger: Ledger
        var end: SyncRecords.End
    }


    /// A server appending to `history`, keeping its ledger caches under `cacheDirectory`,
    /// judging invitation codes' expiry by `clock` (milliseconds since 1970; the system's clock
    /// unless given one).
    public init(
        history: HouseholdHistory, cacheDirectory: FilePath,
        clock: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    ) {
        self.history = history
        self.cacheDirectory = cacheDirectory
        self.clock = clock
    }

    deinit {
        listener?.cancel()
    }

    /// Creates an empty household's history; its first pushed command is `createHousehold`.
    public func createHousehold(_ household: UUID) async throws {
        try await history.createHousehold(household)
    }

    /// Executes `commands` pushed by `device` (each its ``PushedCommand`` body) and appends them to
    /// its household's history, in one PostgreSQL transaction; returns one outcome per command.
    ///
    /// A command with a stored outcome is answered with it (a retry never executes twice). Every
    /// other one is refused before validation when its body is not a push (`commandInvalid`), its
    /// id is not the one it was submitted under, or its actor is not the device's person
    /// (`actorNotDevicePerson`); the rest are executed in order, each as its own frame, and a
    /// command that breaks a rule is rejected with the rule's code.
    /// - Throws: ``HouseholdHistoryError`` (an unknown household, a device not allowed, a
    ///   database failure: nothing was appended; retry), `LedgerError` when the cache cannot
    ///   be written, ``SyncError/historyInvalid(_:)`` when the committed history does not verify.
    public func push(_ commands: [SubmittedCommand], from device: Device) async throws -> [CommandOutcome] {
        try await push(commands, read: [:], from: device)
    }

    /// ``push(_:from:)`` for commands the caller read already (`tally serve`'s route reads every
    /// line to refuse a malformed request whole): each body as it came, with what it reads as.
    /// Their bodies are not read again.
    package func push(read commands: [(body: [UInt8], push: PushedCommand)], from device: Device) async throws -> [CommandOutcome] {
        var read: [UUID: PushedCommand] = [:]
        for command in commands where read[command.push.command.commandID.uuid] == nil {
            read[command.push.command.commandID.uuid] = command.push  // the history executes an id's first body only
        }
        let submitted = commands.map { SubmittedCommand(commandID: $0.push.command.commandID.uuid, body: $0.body) }
        return try await push(submitted, read: read, from: device)
    }

    private func push(_ commands: [SubmittedCommand], read: [UUID: PushedCommand], from device: Device) async throws -> [CommandOutcome] {
        let person = PersonID(device.personID)
        // A cache that wrote frames whose commit then failed is ahead of the history: the next
        // append finds it so (``cache(for:)``) and rebuilds it.
        let outcomes = try await history.append(household: device.householdID, device: device.deviceID, commands: commands) { @Sendable batch in
            try await self.execute(batch, person: person, read: read)
        }
        // This process's pulls wake at once; other processes' by the commit's notification.
        let head = outcomes.compactMap { outcome -> UInt64? in
            if case .accepted(_, let last) = outcome { return last } else { return nil }
        }.max()
        if let head { committed(household: device.householdID, head: head) }
        return outcomes
    }

    /// The household's committed frames that end after `sequenceNumber`, at most `limit`, with
    /// the head, and (when `keySerial` is given and there are frames) the household's keys
    /// stored after it (at most ``SyncBounds/keysPerPageMax``; a device adopts them before it appends the
    /// frames), read in the same answer. When there are no frames, waits up to
    /// `waitMilliseconds` (at most ``SyncBounds/waitMillisecondsMax``) for some: a long poll. The pull
    /// reads PostgreSQL again as soon as a commit moves the household's head past its cursor:
    /// a push through this process, or any server process's commit, which PostgreSQL notifies
    /// (no polling while the notifications are heard); a cancelled request stops waiting.
    /// - Parameter chain: the chain value the device holds at `sequenceNumber` (nil: not
    ///   checked; 0 needs none); a pull from a cursor that is not on the history is refused.
    /// - Throws: ``SyncError/cursorNotOnHistory(_:)``; ``HouseholdHistoryError``.
    public func pull(
        household: UUID, after sequenceNumber: UInt64, chain: [UInt8]? = nil, limit: Int, waitMilliseconds: Int = 0,
        keysAfter keySerial: Int64? = nil
    ) async throws -> PulledPage {
        watched[household, default: Watch()].pulls += 1
        defer { unwatch(household) }
        let limit = max(limit, 1)  // a page of no frame would never end a wait
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(min(max(waitMilliseconds, 0), SyncBounds.waitMillisecondsMax))
        // Whether commits were heard from before the read: one committed while the listener
        // was (re)connecting is read, or wakes the pull when it connects (``setListening(_:)``).
        var heard = listening
        var page = try await readPage(household: household, after: sequenceNumber, chain: chain, limit: limit)
        while page.frames.isEmpty, clock.now < deadline {
            startListening()
            let interval = heard ? notifiedPollInterval : databasePollInterval
            await waitForCommit(household: household, after: sequenceNumber, timeout: min(interval, deadline - clock.now))
            try Task.checkCancellation()
            heard = listening
            page = try await readPage(household: household, after: sequenceNumber, chain: chain, limit: limit)
        }
        guard !page.frames.isEmpty, let keySerial, page.lastKeySerial > keySerial else {
            return PulledPage(frames: page.frames, head: page.head)
        }
        let keys = try await keys(household: household, after: keySerial)
        return PulledPage(
            frames: page.frames, keys: keys, moreKeys: keys.count >= min(SyncBounds.keysPerPageMax, history.limits.keysPerStoreMax), head: page.head)
    }

    /// One page of the history after the cursor, checked against the device's chain there;
    /// records the head for the waiting pulls.
    private func readPage(household: UUID, after sequenceNumber: UInt64, chain: [UInt8]?, limit: Int) async throws -> HistoryPage {
        let page = try await history.page(household: household, after: sequenceNumber, limit: limit)
        if let chain, sequenceNumber > 0 {
            guard let held = page.cursorChain else {
                throw SyncError.cursorNotOnHistory("no frame of household \(household) ends at \(sequenceNumber): the device's ledger is not a prefix of this household's history")
            }
            guard held == chain else {
                throw SyncError.cursorNotOnHistory("the device's chain value at \(sequenceNumber) is not the server's: its ledger is of another history; set it up again from the server")
            }
        }
        committed(household: household, head: page.head)
        return page
    }

    /// Stores text keys `device` shares with its household (Docs/Sync.md, "Keys between
    /// devices"), each sealed under the household's secret, which the server does not hold.
    /// `secretVerifier` tells the device's secret from another
    /// (``HouseholdHistory/storeKeys(_:secretVerifier:household:device:)``).
    /// - Returns: the people for whom the server holds another key (a conflict: see
    ///   ``SyncError/personalKeyConflict(_:)``).
    /// - Throws: ``HouseholdHistoryError/householdSecretMismatch(household:)``.
    public func shareKeys(_ keys: [SealedPersonKey], secretVerifier: [UInt8], from device: Device) async throws -> [UUID] {
        try await history.storeKeys(keys, secretVerifier: secretVerifier, household: device.householdID, device: device.deviceID)
    }

    /// The household's keys stored after `serial` (at most ``SyncBounds/keysPerPageMax``), in order.
    public func keys(household: UUID, after serial: Int64) async throws -> [StoredPersonKey] {
        try await history.keys(household: household, after: serial, limit: SyncBounds.keysPerPageMax)
    }

    /// An invitation code for a new device of `device`'s household acting for `person` (nil:
    /// `device`'s person; Docs/Sync.md, "Joining a household"), decided by the engine on the
    /// household's state at its head, under the row lock: the invitee of a pending household
    /// invitation (asked by the admin, H6), until it expires; an active member (asked by
    /// themselves or the admin), for 7 days.
    /// - Throws: `LedgerError.rejected` (`adminOnly`, `notAMember`, `unknownPerson`);
    ///   ``HouseholdHistoryError``.
    public func invite(for person: UUID?, from device: Device) async throws -> (invitation: DeviceInvitation, code: String) {
        let now = Timestamp(millisecondsSinceEpoch: clock())
        let person = person ?? device.personID
        return try await history.createDeviceInvitation(household: device.householdID, device: device.deviceID) { @Sendable batch in
            try await self.decideInvitation(for: PersonID(person), by: PersonID(device.personID), at: now, batch: batch)
        }
    }

    /// The device a bearer token belongs to, judged by this server's clock; see
    /// ``HouseholdHistory/authenticate(token:nowMilliseconds:)``.
    public func authenticate(token: String) async throws -> Device? {
        try await history.authenticate(token: token, nowMilliseconds: clock())
    }

    /// Registers a new device with an invitation code; see
    /// ``HouseholdHistory/acceptDeviceInvitation(code:nowMilliseconds:)``.
    public func acceptInvitation(code: String) async throws -> JoinedDevice {
        try await history.acceptDeviceInvitation(code: code, nowMilliseconds: clock())
    }

    private func decideInvitation(for person: PersonID, by requester: PersonID, at time: Timestamp, batch: AppendBatch) async throws -> DeviceInvitation {
        let ledger = try await cache(for: batch)
        let granted = try await ledger.deviceInvitation(for: person, by: requester, at: time)
        return DeviceInvitation(personID: person.uuid, invitationID: granted.invitation?.uuid, expiresAtMilliseconds: granted.expiresAt.millisecondsSinceEpoch)
    }

    /// How often a waiting pull reads PostgreSQL while this process does not hear the
    /// database's commit notifications (before its listener starts, or while it reconnects).
    private(set) var databasePollInterval = Duration.milliseconds(250)
    /// How often a waiting pull reads PostgreSQL while the notifications are heard: only in
    /// case one was lost.
    private(set) var notifiedPollInterval = Duration.seconds(5)

    /// Whether this process hears the database's commit notifications now.
    var isListening: Bool { listening }

    /// Sets how often waiting pulls read PostgreSQL (tests: with both long, only a commit's
    /// notification or a push through this process wakes a waiting pull in time).
    func pollEvery(withoutNotifications database: Duration, notified: Duration) {
        databasePollInterval = database
        notifiedPollInterval = notified
    }

    /// Returns once the household's known head is past `cursor` (at once when it is already),
    /// after `timeout`, or when the task is cancelled.
    private func waitForCommit(household: UUID, after cursor: UInt64, timeout: Duration) async {
        let waiter = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                guard let watch = watched[household], watch.head <= cursor, !Task.isCancelled else {
                    continuation.resume()
                    return
                }
                watched[household]?.waiters[waiter] = (cursor, continuation)
                Task {
                    try? await Task.sleep(for: timeout)
                    self.resume(waiter, household: household)
                }
            }
        } onCancel: {
            Task { await self.resume(waiter, household: household) }
        }
    }

    /// Resumes one waiting pull, if it still waits.
    private func resume(_ waiter: UUID, household: UUID) {
        watched[household]?.waiters.removeValue(forKey: waiter)?.continuation.resume()
    }

    /// A commit moved the household's head to `head`: the pulls waiting before it wake.
    private func committed(household: UUID, head: UInt64) {
        guard var watch = watched[household], head > watch.head else { return }
        watch.head = head
        let woken = watch.waiters.filter { $0.value.after < head }
        for waiter in woken.keys { watch.waiters[waiter] = nil }
        watched[household] = watch
        for (_, waiter) in woken { waiter.continuation.resume() }
    }

    /// A pull of the household ended; the last one's end forgets it.
    private func unwatch(_ household: UUID) {
        guard var watch = watched[household] else { return }
        watch.pulls -= 1
        watched[household] = watch.pulls > 0 ? watch : nil
    }

    /// Starts hearing the database's commit notifications, once: when the connection fails, the
    /// listener wakes every waiting pull (it may have missed a commit) and listens again.
    private func startListening() {
        guard listener == nil, !closed else { return }
        listener = Task { [weak self, history] in
            while !Task.isCancelled {
                do {
                    try await history.listenForCommits { [weak self] in
                        await self?.setListening(true)
                    } heard: { [weak self] commit in
                        await self?.committed(household: commit.household, head: commit.head)
                    }
                } catch {}
                guard let self else { return }
                await self.setListening(false)
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// The listener connected or lost its connection: either way every waiting pull reads
    /// again, for what was committed while nobody listened.
    private func setListening(_ now: Bool) {
        listening = now && !closed
        wakeAll()
    }

    private func wakeAll() {
        for household in watched.keys {
            for waiter in watched[household]?.waiters.keys ?? [:].keys { resume(waiter, household: household) }
        }
    }

    /// Closes every ledger cache.
    public func close() async {
        closed = true
        listener?.cancel()
        listener = nil
        wakeAll()
        for household in caches.keys { await dropCache(household, removing: false) }
    }

    // MARK: Executing under the row lock

    /// Executes the batch on the household's cache. On any failure the cache is closed: it may
    /// hold frames the history will not (the transaction rolls back). Its folder stays: the next
    /// append opens it again and keeps it when it is a prefix of the history (a database error
    /// left it so), or rebuilds it (``cache(for:)``).
    private func execute(_ batch: AppendBatch, person: PersonID, read: [UUID: PushedCommand]) async throws -> ExecutedBatch {
        do {
            return try await executeOnCache(batch, person: person, read: read)
        } catch {
            await dropCache(batch.householdID, removing: false)
            throw error
        }
    }

    private func executeOnCache(_ batch: AppendBatch, person: PersonID, read: [UUID: PushedCommand]) async throws -> ExecutedBatch {
        let ledger = try await cache(for: batch)
        var outcomes: [CommandOutcome?] = []
        var pushed: [PushedCommand] = []
        for submitted in batch.commands {
            do throws(SyncError) {
                let push: PushedCommand
                if let known = read[submitted.commandID] { push = known } else { push = try PushedCommand(body: submitted.body) }
                guard push.command.commandID.uuid == submitted.commandID else {
                    throw .commandInvalid("the command's id \(push.command.commandID) is not the id it was pushed under (\(submitted.commandID))")
                }
                guard push.command.actor == person else {
                    outcomes.append(.rejected(
                        code: "actorNotDevicePerson",
                        message: "the command's actor \(push.command.actor) is not this device's person \(person); a device pushes only its own person's commands"))
                    continue
                }
                pushed.append(push)
                outcomes.append(nil)
            } catch {
                outcomes.append(.rejected(code: "commandInvalid", message: "\(error)"))
            }
        }
        guard !pushed.isEmpty else { return ExecutedBatch(frames: [], outcomes: outcomes.compactMap { $0 }) }
        let results = try await ledger.execute(each: pushed.map(\.command), sealedTexts: pushed.map(\.texts))
        var executedOutcomes = results.makeIterator()
        var executed = ExecutedBatch(frames: [], outcomes: [])
        for index in outcomes.indices where outcomes[index] == nil {
            guard let result = executedOutcomes.next() else {
                throw SyncError.historyInvalid("the server's ledger stopped before command \(index + 1) of the push")
            }
            switch result {
            case .success(let positions):
                guard let first = positions.first, let last = positions.last else {
                    throw SyncError.historyInvalid("an accepted command produced no event")
                }
                outcomes[index] = .accepted(firstSequenceNumber: first.sequenceNumber, lastSequenceNumber: last.sequenceNumber)
                for position in positions where Self.accessChangingTags.contains(position.tag) {
                    for committed in try await ledger.events(from: position.sequenceNumber, through: position.sequenceNumber) {
                        Self.recordAccessChange(of: committed.event.payload, into: &executed)
                    }
                }
            case .failure(.rejected(let violation)):
                outcomes[index] = .rejected(code: violation.code.rawValue, message: violation.message)
            case .failure(let error):
                throw error
            }
        }
        executed.frames = try await newFrames(of: batch.householdID)
        executed.outcomes = outcomes.compactMap { $0 }
        return executed
    }

    /// The events that change what the server lets devices do, whatever command made them
    /// (`forgetPerson` and `deletePerson` forget, an undo of `inviteMember` cancels).
    private static let accessChangingTags: Set<EventTag> = [.personForgotten, .memberRemoved, .invitationCancelled, .invitationAccepted]

    /// What an accepted command's event changes on the server (``ExecutedBatch/forgottenPeople``,
    /// ``ExecutedBatch/removedMembers``, ``ExecutedBatch/cancelledInvitations``,
    /// ``ExecutedBatch/acceptedInvitations``).
    private static func recordAccessChange(of event: EventPayload, into batch: inout ExecutedBatch) {
        switch event {
        case .personForgotten(let forgotten): batch.forgottenPeople.append(forgotten.personID.uuid)
        case .memberRemoved(let removed): batch.removedMembers.append(removed.personID.uuid)
        case .invitationCancelled(let cancelled): batch.cancelledInvitations.append(cancelled.invitationID.uuid)
        case .invitationAccepted(let accepted): batch.acceptedInvitations.append(accepted.invitationID.uuid)
        default: break
        }
    }

    /// The frames the cache wrote after the end it had, in the history's form.
    private func newFrames(of household: UUID) async throws -> [HistoryFrame] {
        guard var cache = caches[household] else {
            throw SyncError.historyInvalid("household \(household): its cache was closed during the append")
        }
        var frames: [HistoryFrame] = []
        for frame in try await cache.ledger.recordFrames(after: cache.end.sequenceNumber, chain: cache.end.chain) {
            frames.append(HistoryFrame(
                firstSequenceNumber: frame.first, lastSequenceNumber: frame.last, records: SyncRecords.encode(frame.records),
                chain: frame.chain.bytes))
            cache.end = SyncRecords.End(sequenceNumber: frame.last, chain: frame.chain)
        }
        caches[household] = cache
        return frames
    }

    /// The household's ledger cache at the batch's head: opened (or created) and caught up with
    /// the frames committed since it ends, each checked. A cache that is not a prefix of the
    /// history (ahead of it, on another chain, its journal not where it was left, or one that
    /// cannot be opened) is dropped and rebuilt from the history once; a rebuilt one that still
    /// disagrees is an error.
    private func cache(for batch: AppendBatch) async throws -> Ledger {
        let household = batch.householdID
        for attempt in 0..<2 {
            do {
                var cache = try await openCache(household)
                guard await cache.ledger.lastSequenceNumber == cache.end.sequenceNumber,
                      cache.end.sequenceNumber <= batch.head.sequenceNumber
                else {
                    throw SyncError.historyInvalid("household \(household): the server's cache ends at \(await cache.ledger.lastSequenceNumber), past the history's \(batch.head.sequenceNumber)")
                }
                while cache.end.sequenceNumber < batch.head.sequenceNumber {
                    let frames = try await batch.committedFrames(after: cache.end.sequenceNumber, limit: SyncBounds.framesPerPageMax)
                    let verified = try SyncRecords.verify(frames, after: cache.end)
                    guard let reached = verified.last?.end else { break }
                    try await cache.ledger.appendConfirmed(verified.map(\.records), after: cache.end.sequenceNumber)
                    cache.end = reached
                    caches[household] = cache
                }
                guard cache.end.sequenceNumber == batch.head.sequenceNumber, cache.end.chain.bytes == batch.head.chain else {
                    throw SyncError.historyInvalid("household \(household): the history's head is \(batch.head.sequenceNumber), but its frames end at \(cache.end.sequenceNumber) or chain otherwise")
                }
                return cache.ledger
            } catch {
                await dropCache(household)
                if attempt == 1 { throw error }
            }
        }
        throw SyncError.historyInvalid("household \(household): the cache could not be rebuilt")
    }

    /// The household's cache: kept open, or opened from its folder (its chain recomputed from
    /// its journal, once per process), or created empty.
    private func openCache(_ household: UUID) async throws -> HouseholdCache {
        if let cache = caches[household] { return cache }
        var options = LedgerOptions()
        options.keyless = true
        let ledger = try await Ledger.open(at: folder(of: household), options: options)
        let end: (sequenceNumber: UInt64, chain: ChainValue)
        do {
            end = try await ledger.recordChainEnd()
        } catch {
            try? await ledger.close()
            throw error
        }
        let cache = HouseholdCache(ledger: ledger, end: SyncRecords.End(sequenceNumber: end.sequenceNumber, chain: end.chain))
        caches[household] = cache
        return cache
    }

    private func folder(of household: UUID) -> FilePath {
        cacheDirectory.appending(household.uuidString.lowercased())
    }

    /// Closes the household's cache and (unless told otherwise) removes its folder.
    private func dropCache(_ household: UUID, removing: Bool = true) async {
        if let cache = caches.removeValue(forKey: household) { try? await cache.ledger.close() }
        if removing { try? FileManager.default.removeItem(atPath: folder(of: household).string) }
    }
}

extension HouseholdHistory {
    /// Creates an empty household whose record chain starts at ``ChainValue/genesis`` (the one
    /// start every device's `RecordChain` computes from).
    public func createHousehold(_ household: UUID) async throws {
        try await createHousehold(household, genesisChain: ChainValue.genesis.bytes)
    }
}
