import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyServer

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
    /// Pushes committed through this process, per household: a waiting pull that saw a count
    /// does not wait once it moved.
    private var commits: [UUID: UInt64] = [:]
    /// The pulls waiting for a household's next commit, resumed by it (``wake(household:)``)
    /// or by their timer.
    private var waiters: [UUID: [UUID: CheckedContinuation<Void, Never>]] = [:]

    /// One household's ledger cache and where its record chain ends.
    private struct HouseholdCache {
        let ledger: Ledger
        var end: SyncRecords.End
    }

    /// The most frames one page of the history holds: what a pull answers at most, and what a
    /// catch-up reads at once (the device, the HTTP route and the cache use this one value).
    public static let framesPerPageMax = 256
    /// The most bytes of pushed bodies one push carries (one body per command, with a newline
    /// each over HTTP): `tally serve` refuses a larger request, and a device cuts its outbox into
    /// pushes below it.
    public static let pushBytesMax = 8 << 20

    /// The most keys one ``keys(household:after:)`` returns.
    public static let keysPerPageMax = 1_000

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
        let person = PersonID(device.personID)
        // A cache that wrote frames whose commit then failed is ahead of the history: the next
        // append finds it so (``cache(for:)``) and rebuilds it.
        let outcomes = try await history.append(household: device.householdID, device: device.deviceID, commands: commands) { @Sendable batch in
            try await self.execute(batch, person: person)
        }
        commits[device.householdID, default: 0] += 1
        wake(household: device.householdID)
        return outcomes
    }

    /// The household's committed frames that end after `sequenceNumber`, at most `limit`. When
    /// there are none, waits up to `waitMilliseconds` (at most ``waitMillisecondsMax``) for
    /// some: a long poll. It reads PostgreSQL again as soon as a push through this process
    /// commits for the household (the commit resumes it: no polling), and every
    /// ``databasePollInterval`` for what other server processes commit; a cancelled request
    /// stops waiting.
    /// - Parameter chain: the chain value the device holds at `sequenceNumber` (nil: not
    ///   checked; 0 needs none); a pull from a cursor that is not on the history is refused.
    /// - Throws: ``SyncError/cursorNotOnHistory(_:)``; ``HouseholdHistoryError``.
    public func pull(
        household: UUID, after sequenceNumber: UInt64, chain: [UInt8]? = nil, limit: Int, waitMilliseconds: Int = 0
    ) async throws -> [HistoryFrame] {
        if let chain, sequenceNumber > 0 {
            guard let held = try await history.chain(household: household, endingAt: sequenceNumber) else {
                throw SyncError.cursorNotOnHistory("no frame of household \(household) ends at \(sequenceNumber): the device's ledger is not a prefix of this household's history")
            }
            guard held == chain else {
                throw SyncError.cursorNotOnHistory("the device's chain value at \(sequenceNumber) is not the server's: its ledger is of another history; set it up again from the server")
            }
        }
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(min(max(waitMilliseconds, 0), Self.waitMillisecondsMax))
        var seen = commits[household, default: 0]
        var frames = try await history.frames(household: household, after: sequenceNumber, limit: limit)
        while frames.isEmpty, clock.now < deadline {
            await waitForCommit(household: household, after: seen, timeout: min(Self.databasePollInterval, deadline - clock.now))
            try Task.checkCancellation()
            seen = commits[household, default: 0]
            frames = try await history.frames(household: household, after: sequenceNumber, limit: limit)
        }
        return frames
    }

    /// Stores text keys `device` shares with its household (Docs/Sync.md, "Keys between
    /// devices"), each sealed under the household's secret, which the server does not hold.
    /// - Returns: the people for whom the server holds another key (a conflict: see
    ///   ``SyncError/personalKeyConflict(_:)``).
    public func shareKeys(_ keys: [SealedPersonKey], from device: Device) async throws -> [UUID] {
        try await history.storeKeys(keys, household: device.householdID, device: device.deviceID)
    }

    /// The household's keys stored after `serial` (at most ``keysPerPageMax``), in order.
    public func keys(household: UUID, after serial: Int64) async throws -> [StoredPersonKey] {
        try await history.keys(household: household, after: serial, limit: Self.keysPerPageMax)
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

    /// ``pull(household:after:chain:limit:waitMilliseconds:)`` and, when it brings frames, the
    /// household's keys stored after `keySerial` (at most ``keysPerPageMax``), read after the
    /// frames: a device adopts them before it appends the frames, in one request.
    public func pullPage(
        household: UUID, after sequenceNumber: UInt64, chain: [UInt8]?, limit: Int, waitMilliseconds: Int, keysAfter keySerial: Int64
    ) async throws -> PulledPage {
        let frames = try await pull(household: household, after: sequenceNumber, chain: chain, limit: limit, waitMilliseconds: waitMilliseconds)
        guard !frames.isEmpty else { return PulledPage(frames: []) }
        let keys = try await keys(household: household, after: keySerial)
        return PulledPage(frames: frames, keys: keys, moreKeys: keys.count >= min(Self.keysPerPageMax, history.limits.keysPerStoreMax))
    }

    /// The longest a pull waits for new frames.
    public static let waitMillisecondsMax = 30_000
    /// How often a waiting pull reads PostgreSQL for what other server processes committed.
    static let databasePollInterval = Duration.milliseconds(250)

    /// Returns once a push through this process commits for `household` after the count `seen`
    /// (at once when one did already), after `timeout`, or when the task is cancelled.
    private func waitForCommit(household: UUID, after seen: UInt64, timeout: Duration) async {
        let waiter = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                guard commits[household, default: 0] == seen, !Task.isCancelled else {
                    continuation.resume()
                    return
                }
                waiters[household, default: [:]][waiter] = continuation
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
        waiters[household]?.removeValue(forKey: waiter)?.resume()
        if waiters[household]?.isEmpty == true { waiters[household] = nil }
    }

    /// Resumes every pull waiting for `household`.
    private func wake(household: UUID) {
        for continuation in (waiters.removeValue(forKey: household) ?? [:]).values { continuation.resume() }
    }

    /// Closes every ledger cache.
    public func close() async {
        for household in caches.keys { await dropCache(household, removing: false) }
    }

    // MARK: Executing under the row lock

    /// Executes the batch on the household's cache. On any failure the cache is closed: it may
    /// hold frames the history will not (the transaction rolls back). Its folder stays: the next
    /// append opens it again and keeps it when it is a prefix of the history (a database error
    /// left it so), or rebuilds it (``cache(for:)``).
    private func execute(_ batch: AppendBatch, person: PersonID) async throws -> ExecutedBatch {
        do {
            return try await executeOnCache(batch, person: person)
        } catch {
            await dropCache(batch.householdID, removing: false)
            throw error
        }
    }

    private func executeOnCache(_ batch: AppendBatch, person: PersonID) async throws -> ExecutedBatch {
        let ledger = try await cache(for: batch)
        var outcomes: [CommandOutcome?] = []
        var pushed: [PushedCommand] = []
        for submitted in batch.commands {
            do throws(SyncError) {
                let push = try PushedCommand(body: submitted.body)
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
                    let frames = try await batch.committedFrames(after: cache.end.sequenceNumber, limit: Self.framesPerPageMax)
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
