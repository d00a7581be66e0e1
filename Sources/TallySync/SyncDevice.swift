import Foundation
import Tally
import TallyJournal
import TallyModel
import TallyProjections
import TallySyncWire
import TallyStore

/// A device's side of sync (Docs/Sync.md, "Devices"): its ledger holds the household's confirmed
/// history, the server's records in the server's order, and its commands wait in a durable
/// outbox until the server answers them.
///
/// Local first: ``submit(_:)`` validates a command on the device against the confirmed state
/// with the outbox on top, seals the texts it enters with their owners' keys and records it in
/// the outbox (`sync-outbox.sqlite` in the ledger folder, synced before it returns), with or
/// without a network. ``read(_:)`` shows the confirmed read models with the outbox applied on
/// top. ``sync(waitMilliseconds:)`` pushes the outbox in order and pulls: each command is
/// accepted (its events come back in the household's history, and it leaves the outbox) or
/// rejected with the rule it breaks (it leaves the outbox for ``rejections()``, until the app
/// dismisses it). Nothing is rewritten on a pull: the confirmed journal only grows, and the
/// outbox is executed on top of it again when the confirmed state changes (O(pending); a
/// submit costs its own command only).
///
/// ``execute(_:)`` is both at once, for a device that is online.
public actor SyncDevice {
    /// The device's ledger: read it as any ledger. Every read (the read models, the queries,
    /// search, reports, observations) shows the confirmed history with the outbox's commands on
    /// top (Docs/Sync.md, "Pending on top"); its commands go through this device (a command
    /// executed on it directly is refused with `LedgerError.syncedLedger`).
    public nonisolated let ledger: Ledger
    private let transport: any SyncTransport
    private let outbox: SyncOutboxStore
    /// The outbox's commands, in order, decoded once: O(pending) in memory. A command the server
    /// accepted stays, with its range, until a pull brings its events.
    private var pending: [Entry]
    /// Where the confirmed history ends: sequence number and record chain.
    private var end: SyncRecords.End
    /// Accepted commands that left the outbox (their events pulled) and that no ``Report`` has
    /// listed yet: the next ``sync(waitMilliseconds:)`` lists them.
    private var unreported: [CommandID: ClosedRange<UInt64>] = [:]
    /// One submit at a time: each validates against the outbox the one before left.
    private var local = FIFOLock()
    /// One push or pull at a time: each continues from where the one before left ``end``. A
    /// submit never waits for it (a long poll holds it for up to 30 s).
    private var network = FIFOLock()
    /// The household's secret: the people's text keys travel between its devices sealed under it.
    let householdSecret: HouseholdSecret
    /// The people whose key this device and the server hold in common (shared from here or
    /// received), and the serial of the last key received (Docs/Sync.md, "Keys between devices").
    private var sharedKeyOwners: Set<String>
    /// The ledger's count of keys set (`Ledger.personalKeysSet`) when every key it then held was
    /// shared: while it has not moved, a push shares nothing without copying the key ring.
    private var keysSetWhenShared: UInt64?
    private var keySerial: Int64
    /// How many times ``pending`` was handed to the ledger (``showOutbox()``), and this
    /// device's id for the numbers (another device on the same ledger numbers anew).
    private var outboxVersion: UInt64 = 0
    private let outboxNumbering = UUID()

    private struct Entry {
        var push: PushedCommand
        /// The range of its events, once the server accepted it.
        var accepted: ClosedRange<UInt64>?
        var commandID: CommandID { push.command.commandID }
    }

    /// The most keys one share carries (a server takes up to `HistoryLimits.keysPerStoreMax`, 1,000
    /// by default).
    public static let keysPerShareMax = 100

    /// The most outbox commands one push carries (and at most ``SyncBounds/pushBytesMax`` bytes).
    public static let commandsPerPushMax = 100

    /// The sync side of `ledger` (its journal holds only history confirmed by the server, from
    /// the household's first record), reaching its server through `transport`. Opens the
    /// ledger's outbox, creating it when new (which marks the ledger as synced), and reads the
    /// journal once, a frame at a time, to compute where its record chain ends.
    ///
    /// - Parameter householdSecret: the household's secret, from the ``SyncInvitation`` a
    ///   joining device was given (Docs/Sync.md, "Joining a household"). Nil for the household's
    ///   first device, whose new outbox makes one, and for a device set up before (its outbox
    ///   holds it).
    /// - Throws: `LedgerError.syncedLedger` when the outbox cannot be opened;
    ///   ``SyncError/commandInvalid(_:)`` for an outbox entry that does not decode;
    ///   ``SyncError/householdSecretMismatch(_:)`` for a secret that is not the one the outbox holds.
    public init(ledger: Ledger, transport: any SyncTransport, householdSecret: HouseholdSecret? = nil) async throws {
        self.ledger = ledger
        self.transport = transport
        let end = try await ledger.recordChainEnd()
        self.end = SyncRecords.End(sequenceNumber: end.sequenceNumber, chain: end.chain)
        outbox = try await ledger.openSyncOutbox()
        do {
            self.householdSecret = try Self.secret(in: outbox, given: householdSecret)
            (sharedKeyOwners, keySerial) = try outbox.sharedKeys()
            pending = try outbox.pending().map { stored in
                Entry(push: try PushedCommand(body: stored.body), accepted: stored.accepted)
            }
        } catch {
            outbox.close()
            throw error
        }
        await showOutbox()
    }

    /// Makes `ledger` (a new, empty one) a device of the household whose secret an invitation
    /// carries, before its code is spent (Docs/Sync.md, "Joining a household"): its outbox holds
    /// the secret, durably, so a device that joins never holds a token without it. Open the
    /// ``SyncDevice`` once the join answered its token.
    /// - Throws: `LedgerError.syncedLedger` when the outbox cannot be made;
    ///   ``SyncError/householdSecretMismatch(_:)`` when it holds another secret.
    public static func prepareToJoin(_ ledger: Ledger, householdSecret: HouseholdSecret) async throws {
        let outbox = try await ledger.openSyncOutbox()
        defer { outbox.close() }
        _ = try secret(in: outbox, given: householdSecret)
    }

    /// The household secret `outbox` holds, storing `given` (or a new one) when it holds none.
    /// - Throws: ``SyncError/householdSecretMismatch(_:)`` when it holds another one than `given`.
    private static func secret(in outbox: SyncOutboxStore, given: HouseholdSecret?) throws -> HouseholdSecret {
        let stored = try outbox.householdSecret(storingIfNone: (given ?? HouseholdSecret()).bytes)
        guard let secret = HouseholdSecret(bytes: stored) else {
            throw SyncError.householdSecretMismatch("the outbox holds no household secret of 32 bytes")
        }
        if let given, given != secret {
            throw SyncError.householdSecretMismatch("this ledger's outbox holds another household's secret than the invitation's: join with an empty ledger folder")
        }
        return secret
    }

    /// Makes an invitation for a new device of this household acting for `person` (nil: this
    /// device's person; Docs/Sync.md, "Joining a household"): the invitee of a pending household
    /// invitation (its `inviteMember` confirmed; asked by the admin), whose device accepts it
    /// when it joins; or an active member (asked by themselves or the admin). The server makes
    /// a one-use code, valid until the household invitation expires (7 days for a member); the
    /// invitation adds this household's secret, which the server never sees: hand
    /// ``SyncInvitation/text`` to the new device.
    /// - Throws: `LedgerError.rejected` (over HTTP ``SyncError/requestRefused(status:code:message:)``)
    ///   with `adminOnly`, `notAMember`, `unknownPerson`; ``SyncError/householdSecretMismatch(_:)``
    ///   when this device's secret does not open the household's keys; what the transport throws.
    public func invite(for person: PersonID? = nil) async throws -> (invitation: SyncInvitation, expiresAt: Timestamp) {
        await acquire(.network)
        defer { release(.network) }
        // A device that never received a key nor shared one: its secret must open the
        // household's keys before it hands it out (householdSecretMismatch otherwise).
        if keySerial == 0, sharedKeyOwners.isEmpty { try await receiveKeys() }
        let made = try await transport.invite(for: person?.uuid)
        return (SyncInvitation(code: made.code, householdSecret: householdSecret), Timestamp(millisecondsSinceEpoch: made.invitation.expiresAtMilliseconds))
    }

    /// Closes the outbox and the ledger.
    public func close() async throws {
        outbox.close()
        try await ledger.close()
    }

    /// The last sequence number the server confirmed to this device.
    public var confirmedSequenceNumber: UInt64 { end.sequenceNumber }

    /// The ids of the commands in the outbox, in the order they were made: not yet answered, or
    /// accepted and not yet pulled. ``read(_:)`` shows them on top of the confirmed state.
    public var pendingCommandIDs: [CommandID] { pending.map(\.commandID) }

    /// What one ``sync(waitMilliseconds:)`` learned.
    public struct Report: Sendable, Equatable {
        /// Commands of the outbox the server accepted whose events this device now holds (pulled
        /// by this sync, or by an earlier pull or sync that reported none), with their sequence
        /// numbers; each is listed by one report.
        public var accepted: [CommandID: ClosedRange<UInt64>] = [:]
        /// Commands of the outbox the server rejected, in outbox order.
        public var rejected: [Rejection] = []
        /// How many records the pull appended.
        public var pulled: UInt64 = 0

        public init() {}
    }

    /// A command the server rejected: the rule it breaks, kept until the app dismisses it.
    public struct Rejection: Sendable, Equatable {
        public var commandID: CommandID
        /// The rule's code (`RuleViolation.Code`), or a refusal's (`actorNotDevicePerson`,
        /// `commandInvalid`).
        public var code: String
        public var message: String

        /// The engine's error for it: `LedgerError.rejected` for a rule, else ``SyncError/refused(code:message:)``.
        public var error: any Error {
            if let rule = RuleViolation.Code(rawValue: code) { return LedgerError.rejected(RuleViolation(code: rule, message: message)) }
            return SyncError.refused(code: code, message: message)
        }
    }

    /// Where a command stands on this device.
    public enum Status: Sendable, Equatable {
        /// In the confirmed history, at these sequence numbers.
        case confirmed(ClosedRange<UInt64>)
        /// Accepted by the server at these sequence numbers; the pull that brings it has not run.
        case accepted(ClosedRange<UInt64>)
        /// In the outbox, not answered yet.
        case pending
        /// Rejected by the server (not dismissed yet).
        case rejected(Rejection)
        /// Not known here (never submitted, or its rejection was dismissed).
        case unknown
    }

    /// Where `command` stands on this device.
    public func status(of command: CommandID) async throws -> Status {
        if let entry = pending.first(where: { $0.commandID == command }) {
            return entry.accepted.map { .accepted($0) } ?? .pending
        }
        if let range = try await ledger.sequenceNumbers(ofCommand: command) { return .confirmed(range) }
        if let rejection = try storedRejection(command) { return .rejected(rejection) }
        return .unknown
    }

    /// Records `command` in the outbox, durably, whether or not the server can be reached: it
    /// is validated on the device against the confirmed state with the outbox on top (with its
    /// strings, so every rule on a text's content runs here), and the texts it enters are
    /// sealed with their owners' keys (a new key is durable first, P2). Submitting a command
    /// already in the outbox or in the confirmed history does nothing. Never waits for the
    /// network: a pull in progress (a long poll) does not hold it up.
    /// - Throws: `LedgerError.rejected` when it breaks a rule here (nothing is recorded); the
    ///   stored rejection's error when the server rejected it before (``Rejection/error``);
    ///   `LedgerError.syncedLedger` when the outbox cannot be written.
    public func submit(_ command: Command) async throws {
        await acquire(.local)
        defer { release(.local) }
        try await enqueue(command)
    }

    /// Pushes the outbox, in order, then pulls what the household's devices committed since this
    /// device's last confirmed record, checking that every frame continues the history
    /// (sequence numbers and chain) before anything of it is written. The server's answers are
    /// recorded in the outbox before the pull, so a failed pull loses none: an accepted command
    /// stays on top of the confirmed state (``status(of:)`` says `accepted`) until a pull
    /// brings its events, a rejected one is in ``rejections()``.
    /// - Parameter waitMilliseconds: when nothing is new, wait up to this long for the
    ///   household's other devices (long poll); 0 answers at once.
    /// - Throws: what the transport throws (the outbox keeps what was not answered: sync again);
    ///   ``SyncError/historyInvalid(_:)`` when what the server sent does not verify.
    @discardableResult
    public func sync(waitMilliseconds: Int = 0) async throws -> Report {
        await acquire(.network)
        defer { release(.network) }
        var report = Report()
        try await push(into: &report)
        try await pullFrames(waitMilliseconds: waitMilliseconds, into: &report)
        report.accepted.merge(unreported) { first, _ in first }
        unreported = [:]
        return report
    }

    /// Submits `command` and syncs: for a device that is online. Returns the sequence numbers of
    /// its events once they are in this device's ledger. A command the device refuses against
    /// what it holds is decided again after a pull, when the pull brought anything. Retrying a
    /// command (same id) after an error is safe: it is in the outbox, and the server answers a
    /// command it holds with its stored outcome.
    /// - Throws: `LedgerError.rejected` when the command breaks a rule (on the device, or on the
    ///   server against a history that moved on; the rejection is delivered here, not kept in
    ///   ``rejections()``); ``SyncError/refused(code:message:)`` when the server refused it
    ///   unread; what the transport throws (the command stays in the outbox);
    ///   ``SyncError/historyInvalid(_:)`` when what the server sent does not verify.
    @discardableResult
    public func execute(_ command: Command) async throws -> ClosedRange<UInt64> {
        let id = command.commandID
        // A rejection stored by an earlier try (its sync failed after the answer): delivered now, once.
        if let rejection = try storedRejection(id) {
            _ = try dismiss(id)
            throw rejection.error
        }
        do {
            try await submit(command)  // the submit lock only: submits never wait for the network
        } catch LedgerError.rejected(let violation) {
            // Refused against what this device holds: what another device pushed (the wallet
            // it opened) may make it valid. Pull, then decide again; unreachable, the refusal stands.
            guard let pulled = try? await pull(), pulled > 0 else { throw LedgerError.rejected(violation) }
            try await submit(command)
        }
        await acquire(.network)
        defer { release(.network) }
        var report = Report()
        defer { unreported.removeValue(forKey: id) }  // its range is this call's answer
        do {
            try await push(into: &report)
        } catch {
            if let rejection = try storedRejection(id) {  // answered before a later page failed
                _ = try dismiss(id)
                throw rejection.error
            }
            throw error
        }
        if let rejection = try storedRejection(id) {  // by this push, or by a sync that ran before it
            _ = try dismiss(id)  // delivered to its caller as the error, once
            _ = try? await pullFrames(waitMilliseconds: 0, into: &report)  // the state that refused it, when reachable
            throw rejection.error
        }
        try await pullFrames(waitMilliseconds: 0, into: &report)
        if let range = try await ledger.sequenceNumbers(ofCommand: id) { return range }
        throw SyncError.transport("command \(id) is still in the outbox; sync again")
    }

    /// Pulls without pushing: see ``sync(waitMilliseconds:)``. Returns how many records were appended.
    @discardableResult
    public func pull(waitMilliseconds: Int = 0) async throws -> UInt64 {
        await acquire(.network)
        defer { release(.network) }
        var report = Report()
        try await pullFrames(waitMilliseconds: waitMilliseconds, into: &report)
        return report.pulled
    }

    /// Runs `body` with the read models this device shows: the confirmed history's, with the
    /// outbox's commands applied on top in order (their texts opened with this device's keys).
    /// An outbox command that no longer applies on the confirmed state (another device changed
    /// what it edits) is left out; the server will answer it.
    /// The outbox is executed when the confirmed state changes and per command added, not per read.
    public func read<Value: Sendable>(_ body: @Sendable (Projections) -> Value) async throws -> Value {
        try await ledger.readPending(body)
    }

    /// The rejections the server answered that the app has not dismissed.
    public func rejections() throws -> [Rejection] {
        try outbox.rejections().map(Self.rejection)
    }

    /// Forgets a rejection the app has shown. Returns whether there was one.
    @discardableResult
    public func dismissRejection(_ commandID: CommandID) throws -> Bool {
        try dismiss(commandID)
    }

    private func dismiss(_ commandID: CommandID) throws -> Bool {
        try outbox.dismiss(commandID: commandID.description)
    }

    private static func rejection(_ stored: SyncOutboxStore.Rejection) throws -> Rejection {
        Rejection(commandID: try CommandID(parsing: stored.commandID), code: stored.code, message: stored.message)
    }

    private func storedRejection(_ command: CommandID) throws -> Rejection? {
        try outbox.rejection(commandID: command.description).map(Self.rejection)
    }

    // MARK: - Under a lock

    /// The outbox as the engine applies it.
    private var pendingCommands: [PendingCommand] { pending.map { (command: $0.push.command, texts: $0.push.texts) } }

    /// Hands the ledger the outbox as it is now, to show on top of its confirmed state in every
    /// read (`Ledger.showPending`): after every change of ``pending``. Numbered, so that a list
    /// handed by a task that ran earlier never replaces a later one.
    private func showOutbox() async {
        outboxVersion += 1
        await ledger.showPending(pendingCommands, version: outboxVersion, from: outboxNumbering)
    }

    private func enqueue(_ command: Command) async throws {
        if pending.contains(where: { $0.commandID == command.commandID }) { return }
        if try await ledger.sequenceNumbers(ofCommand: command.commandID) != nil { return }
        if let rejection = try storedRejection(command.commandID) { throw rejection.error }
        let texts = try await ledger.sealedTexts(of: command)
        let push = PushedCommand(pushing: command, texts: texts)
        do {
            try outbox.append(commandID: command.commandID.description, body: push.body)
        } catch {
            throw LedgerError.syncedLedger("the sync outbox cannot record command \(command.commandID): \(error); nothing was recorded")
        }
        pending.append(Entry(push: push))
        await showOutbox()
    }

    /// Pushes the unanswered commands of the outbox in pages (``commandsPerPushMax`` commands,
    /// ``SyncBounds/pushBytesMax`` bytes), recording each page's answers before the next:
    /// accepted commands stay with their range until a pull brings them, rejected ones move to
    /// the rejections. A command the ledger already holds (its answer was lost, a pull brought
    /// it) leaves without a push.
    private func push(into report: inout Report) async throws {
        var held: [(CommandID, ClosedRange<UInt64>)] = []
        for entry in pending where entry.accepted == nil {
            if let range = try await ledger.sequenceNumbers(ofCommand: entry.commandID) { held.append((entry.commandID, range)) }
        }
        if !held.isEmpty {
            try record { () throws(StoreError) in try outbox.removeConfirmed(through: 0, held: held.map(\.0.description)) }
            let ids = Set(held.map(\.0))
            pending.removeAll { ids.contains($0.commandID) }
            await showOutbox()
            for (id, range) in held { unreported[id] = range }
        }
        while true {
            // The commands in the outbox now: their keys are in the key file, so sharing every
            // key held now shares theirs (a submit during the sharing waits for the next page).
            // Only pushes and pulls answer commands, and this one holds the network lock: none of
            // them is answered while the keys are shared.
            let candidates = pending.filter { $0.accepted == nil }
            guard !candidates.isEmpty else { return }
            try await shareKeys()
            var page: [Entry] = []
            var bytes = 0
            for entry in candidates {
                guard page.count < Self.commandsPerPushMax, page.isEmpty || bytes + entry.push.body.count + 1 <= SyncBounds.pushBytesMax else { break }
                page.append(entry)
                bytes += entry.push.body.count + 1
            }
            guard !page.isEmpty else { return }
            let outcomes = try await transport.push(page.map { SubmittedCommand(commandID: $0.commandID.uuid, body: $0.push.body) })
            guard outcomes.count == page.count else {
                throw SyncError.transport("the server answered a push of \(page.count) command(s) with \(outcomes.count) outcome(s)")
            }
            var accepted: [(commandID: String, range: ClosedRange<UInt64>)] = []
            var rejected: [SyncOutboxStore.Rejection] = []
            var newlyRejected: [Rejection] = []
            for (entry, outcome) in zip(page, outcomes) {
                switch outcome {
                case .accepted(let first, let last):
                    guard first <= last else { throw SyncError.historyInvalid("the server accepted command \(entry.commandID) at \(first)...\(last)") }
                    accepted.append((entry.commandID.description, first...last))
                case .rejected(let code, let message):
                    newlyRejected.append(Rejection(commandID: entry.commandID, code: code, message: message))
                    rejected.append(SyncOutboxStore.Rejection(commandID: entry.commandID.description, body: entry.push.body, code: code, message: message))
                }
            }
            try record { () throws(StoreError) in try outbox.resolve(accepted: accepted, rejected: rejected) }
            let ranges = Dictionary(accepted.map { ($0.commandID, $0.range) }, uniquingKeysWith: { first, _ in first })
            let rejectedIDs = Set(rejected.map(\.commandID))
            pending.removeAll { rejectedIDs.contains($0.commandID.description) }
            if !rejectedIDs.isEmpty { await showOutbox() }
            for index in pending.indices {
                if let range = ranges[pending[index].commandID.description] { pending[index].accepted = range }
            }
            report.rejected += newlyRejected
        }
    }

    /// Shares with the household the text keys this device holds that the server does not have
    /// yet, sealed under the household's secret, before any command whose texts they seal is
    /// pushed: a device that pulls a text finds its key on the server (Docs/Sync.md, "Keys
    /// between devices").
    /// - Throws: ``SyncError/personalKeyConflict(_:)`` when the server holds another key for
    ///   one of these people (nothing is pushed).
    private func shareKeys() async throws {
        let keysSet = await ledger.personalKeysSet
        guard keysSet != keysSetWhenShared else { return }
        var unshared = try await unsharedKeys()
        guard !unshared.isEmpty else {
            keysSetWhenShared = keysSet
            return
        }
        if keySerial == 0, sharedKeyOwners.isEmpty {
            // The first keys this device shares: its secret must open the household's keys
            // first (householdSecretMismatch), or every other device would receive keys it
            // cannot open.
            try await receiveKeys()
            unshared = try await unsharedKeys()
        }
        var start = 0
        while start < unshared.count {
            let page = unshared[start..<min(start + Self.keysPerShareMax, unshared.count)]
            start += page.count
            let sealed = try page.map { person, key in
                guard let sealed = householdSecret.seal(key, of: person) else {
                    throw SyncError.householdSecretMismatch("the key of \(person) cannot be sealed (it is not 32 bytes)")
                }
                return sealed
            }
            let conflicts: [UUID]
            do {
                conflicts = try await transport.shareKeys(sealed, secretVerifier: householdSecret.verifier)
            } catch let error where Self.isSecretMismatch(error) {
                throw SyncError.householdSecretMismatch("the household's keys are shared under another secret than this device's (a device set up apart shared first): nothing was pushed; set this device up again from an invitation")
            }
            guard conflicts.isEmpty else {
                throw SyncError.personalKeyConflict("the server holds another text key for \(conflicts.map { $0.uuidString.lowercased() }.joined(separator: ", ")) than this device made: another device made one first, and this device's texts of them would not open elsewhere. Nothing was pushed; set this device up again from an invitation (its outbox's commands are lost)")
            }
            let owners = page.map(\.key.description)
            try record { () throws(StoreError) in try outbox.recordSharedKeys(owners) }
            sharedKeyOwners.formUnion(owners)
        }
        keysSetWhenShared = keysSet
    }

    /// The server's refusal of a share under another secret: typed by a transport in the
    /// server's process, a refused request over HTTP.
    private static func isSecretMismatch(_ error: any Error) -> Bool {
        switch error {
        case SyncError.householdSecretMismatch: true
        case SyncError.requestRefused(_, let code, _): code == SyncRefusalCode.householdSecretMismatch
        default: false
        }
    }

    /// The keys this device holds that the server does not hold from it or gave it, by person.
    private func unsharedKeys() async throws -> [(key: PersonID, value: [UInt8])] {
        await ledger.heldPersonalKeys.filter { !sharedKeyOwners.contains($0.key.description) }.sorted { $0.key < $1.key }
    }

    /// Makes the household's keys stored since the last one received durable on this device,
    /// before frames are appended: a frame's keys were shared before its commands were pushed.
    /// - Throws: ``SyncError/personalKeyConflict(_:)`` when this device holds another key for
    ///   one of them; ``SyncError/householdSecretMismatch(_:)`` for a key that does not open.
    private func receiveKeys() async throws {
        while true {
            let stored = try await transport.keys(after: keySerial)
            guard !stored.isEmpty else { return }  // read until a page is empty
            try await adopt(stored)
        }
    }

    /// Makes `stored` (keys after ``keySerial``, in order) durable here; see ``receiveKeys()``.
    private func adopt(_ stored: [StoredPersonKey]) async throws {
        guard let last = stored.last?.serial else { return }
        guard zip([keySerial] + stored.map(\.serial), stored.map(\.serial)).allSatisfy({ $0 < $1 }) else {
            throw SyncError.historyInvalid("the server answered a read of keys after serial \(keySerial) with serials out of order")
        }
        var keys: [PersonID: [UInt8]] = [:]
        var forgotten: [PersonID] = []
        for entry in stored {
            guard let key = entry.key else {
                forgotten.append(PersonID(entry.personID))
                continue
            }
            guard key.personID == entry.personID else { throw SyncError.historyInvalid("a stored key names two people") }
            keys[PersonID(entry.personID)] = try householdSecret.open(key)
        }
        let conflicts = try await ledger.adoptPersonalKeys(keys, forgotten: forgotten)
        guard conflicts.isEmpty else {
            throw SyncError.personalKeyConflict("this device holds another text key for \(conflicts.map(\.description).joined(separator: ", ")) than the household's: their texts made elsewhere would not open here. Set this device up again from an invitation")
        }
        let owners = (Array(keys.keys) + forgotten).map(\.description)
        try record { () throws(StoreError) in try outbox.recordSharedKeys(owners, serial: last) }
        sharedKeyOwners.formUnion(owners)
        keySerial = last
    }

    /// Runs an outbox write, typing its failure.
    private func record(_ write: () throws(StoreError) -> Void) throws {
        do {
            try write()
        } catch {
            throw LedgerError.syncedLedger("the sync outbox cannot record the server's answers: \(error); sync again (the server answers them again)")
        }
    }

    /// Pulls until nothing is new, then drops from the outbox the accepted commands the confirmed
    /// history now holds (reporting them as accepted).
    private func pullFrames(waitMilliseconds: Int, into report: inout Report) async throws {
        let start = end.sequenceNumber
        defer { report.pulled += end.sequenceNumber - start }
        do {
            try await pullPages(waitMilliseconds: waitMilliseconds)
        } catch {
            try? await dropConfirmed()  // the pages appended before the failure
            throw error
        }
        try await dropConfirmed()
    }

    /// Appends pages of frames until the server has nothing new.
    private func pullPages(waitMilliseconds: Int) async throws {
        var wait = waitMilliseconds
        while true {
            let page = try await transport.pull(
                after: end.sequenceNumber, chain: end.chain.bytes, limit: SyncBounds.framesPerPageMax, waitMilliseconds: wait, keysAfter: keySerial)
            let frames = page.frames
            wait = 0
            guard frames.count <= SyncBounds.framesPerPageMax else {
                throw SyncError.historyInvalid("the server answered a pull of at most \(SyncBounds.framesPerPageMax) frames with \(frames.count)")
            }
            let verified = try SyncRecords.verify(frames, after: end)
            guard let reached = verified.last?.end else { break }
            try await adopt(page.keys)
            if page.moreKeys { try await receiveKeys() }
            do {
                try await ledger.appendConfirmed(verified.map(\.records), after: end.sequenceNumber)
            } catch {
                // The frames before the failing one are appended: continue from there.
                let last = await ledger.lastSequenceNumber
                if let appended = verified.last(where: { $0.end.sequenceNumber == last }) { end = appended.end }
                throw error
            }
            end = reached
            if let head = page.head, reached.sequenceNumber >= head { break }  // nothing more to pull
        }
    }

    /// Drops the accepted commands whose events the confirmed history holds, for the next
    /// ``sync(waitMilliseconds:)`` to report.
    private func dropConfirmed() async throws {
        let confirmed = pending.filter { $0.accepted.map { $0.upperBound <= end.sequenceNumber } ?? false }
        guard !confirmed.isEmpty else { return }
        try record { () throws(StoreError) in try outbox.removeConfirmed(through: end.sequenceNumber) }
        for entry in confirmed { unreported[entry.commandID] = entry.accepted }
        pending.removeAll { $0.accepted.map { $0.upperBound <= end.sequenceNumber } ?? false }
        await showOutbox()
    }

    private enum LockName { case local, network }

    private func acquire(_ which: LockName) async {
        switch which {
        case .local: if local.tryAcquire() { return }
        case .network: if network.tryAcquire() { return }
        }
        await withCheckedContinuation { continuation in
            switch which {
            case .local: local.waiting.append(continuation)
            case .network: network.waiting.append(continuation)
            }
        }
    }

    private func release(_ which: LockName) {
        switch which {
        case .local: local.release()
        case .network: network.release()
        }
    }
}

/// A lock that hands itself to waiters in the order they came, held across awaits.
private struct FIFOLock {
    private var busy = false
    var waiting: [CheckedContinuation<Void, Never>] = []

    /// Takes the lock when it is free.
    mutating func tryAcquire() -> Bool {
        guard !busy else { return false }
        busy = true
        return true
    }

    /// Passes the lock to the next waiter, or frees it.
    mutating func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
