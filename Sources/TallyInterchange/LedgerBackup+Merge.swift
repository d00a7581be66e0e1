import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyProjections

/// Merging a backup into a ledger (Swiff 2.4.3, "add new, keep existing"; Docs/Interchange.md
/// "Merging a backup"): the entities of the backup the ledger does not have are added through
/// the ledger's own commands, so every rule checks them; the ones it has stay as they are.
extension LedgerBackup {
    /// An entity of the backup, by kind and id (a balance point: `WALLET DATE`).
    public struct MergeEntity: Sendable, Hashable, CustomStringConvertible {
        /// The kinds a merge carries, in the order it adds them.
        public enum Kind: String, Sendable, CaseIterable {
            case person, category, wallet, balancePoint, transaction, transfer
        }

        /// The kind.
        public var kind: Kind
        /// The id.
        public var id: String

        /// Creates an entity reference.
        public init(kind: Kind, id: String) {
            self.kind = kind
            self.id = id
        }

        /// `kind id`.
        public var description: String { "\(kind.rawValue) \(id)" }
    }

    /// An entity of the backup the ledger's rules refuse to add.
    public struct MergeRefusal: Sendable, Equatable {
        /// The entity.
        public var entity: MergeEntity
        /// The refusal's code (a `RuleViolation.Code`, `walletInactive`).
        public var code: String
        /// The rule it names (`W4`); empty for a refusal that is not a rule's.
        public var rule: String
        /// The rule's message.
        public var message: String
    }

    /// What a merge adds and leaves (the preview, and after ``merge(into:options:)`` what it
    /// did): every entity of the backup that is live there, or one the ledger also has, is in
    /// exactly one of ``new``, ``kept``, ``differs`` and ``refused``.
    public struct MergePlan: Sendable {
        /// The entities the merge adds (their commands are ``commands``).
        public var new: [MergeEntity] = []
        /// The entities the ledger already has, the same as in the backup.
        public var kept: [MergeEntity] = []
        /// The entities the ledger already has, different in the backup (deleted there, or
        /// another value): the ledger's stays.
        public var differs: [MergeEntity] = []
        /// The entities the ledger's rules refuse, with the rule.
        public var refused: [MergeRefusal] = []
        /// The commands that add ``new``, in order: one all-or-nothing batch.
        public var commands: [Command] = []

        /// How many entities of `kind` a list holds.
        public static func count(_ kind: MergeEntity.Kind, in list: [MergeEntity]) -> Int { list.count { $0.kind == kind } }
    }

    /// How a merge reads the backup and writes the ledger.
    public struct MergeOptions: Sendable {
        /// Merge a version 1 or 2 document (no chain, no checksum).
        public var acceptingUnverifiedFormat = false
        /// Opens the backup's sealed personal keys (its passphrase or key).
        public var unlock: BackupKeyUnlock?
        /// Read a backup that holds no keys although some of its people's keys are not in the
        /// ledger either (a backup without keys takes them from the ledger): their names and
        /// notes read as redacted, so those people are not brought and their notes are left out.
        public var acceptingUnreadableTexts = false
        /// Apply the commands the ledger accepts and leave out the refused entities (listed in
        /// ``MergePlan/refused``); off by default: one refusal fails the whole merge.
        public var skippingRefused = false
        /// Who executes the commands (a transaction or transfer with a note: its writer);
        /// default the household's admin.
        public var actor: PersonID?
        /// When the commands are recorded.
        public var recordedAt: Timestamp

        /// Options recording at `recordedAt`.
        public init(recordedAt: Timestamp) {
            self.recordedAt = recordedAt
        }
    }

    /// The preview: what ``merge(into:options:)`` would add, keep and refuse, with no write.
    ///
    /// The backup is verified and restored, as ``restore(into:options:)`` does, into a
    /// temporary ledger beside `ledger` (`NAME.merging`, encrypted at rest as `ledger` is,
    /// removed afterwards; keys as when replacing: a backup without keys takes them from
    /// `ledger`, people forgotten there stay forgotten, P3), and its final state compared with
    /// the ledger's by id: an entity the ledger does not have is new, one it has is kept
    /// (listed under ``MergePlan/differs`` when the backup's differs). Deleted entities of the
    /// backup are not brought, nor people forgotten or removed there (P3, H4). A new member of
    /// the backup is added as a contact: membership is the admin's decision (H6). Every new
    /// entity's commands are checked, in order, against the ledger's state with the earlier
    /// ones applied; a refused entity is listed with the rule and the commands of the others
    /// go on.
    ///
    /// - Throws: everything a restore throws about the backup (integrity, keys, decoding:
    ///   `backupChainMismatch`, `backupKeyRequired`...), `mergeHouseholdMismatch` (the backup
    ///   is of another household), `mergeTargetEmpty` (the ledger has no household),
    ///   `ioFailure` when the temporary ledger cannot be removed.
    public func mergePlan(into ledger: Ledger, options: MergeOptions) async throws(InterchangeError) -> MergePlan {
        let current = try await LedgerHistory.load(from: ledger).state
        guard let household = current.household else {
            throw InterchangeError(code: "mergeTargetEmpty", message: "\(ledger.directory) has no household; restore the backup instead (tally import backup FILE)")
        }
        let temporary = try await restoredCopy(beside: ledger, options: options)
        let backup: LedgerState
        do throws(InterchangeError) {
            backup = try LedgerHistory.load(at: temporary, encryption: ledger.options.encryption).state
        } catch {
            try? Self.remove(temporary)
            throw error
        }
        try Self.remove(temporary)
        guard let backupHousehold = backup.household, backupHousehold.id == household.id else {
            throw InterchangeError(code: "mergeHouseholdMismatch", message: "the backup is of household \(backup.household.map { "\($0.name) (\($0.id))" } ?? "none"), the ledger of \(household.name) (\(household.id)): a merge matches entities by id, which only a backup of the same household shares; restore it as its own ledger instead; nothing was merged")
        }
        var plan = MergePlan()
        let entities = Self.entityCommands(from: backup, comparedWith: current, into: &plan)
        let actor = options.actor ?? household.admin
        let batch = "merge \(integrity?.finalChainValue ?? String(lastSequenceNumber)) after \(current.nextSequenceNumber - 1)"
        let steps = entities.ordered
        // An entity refused at a later step (an archive, a close) after earlier ones were
        // accepted is left out whole, and the plan made again without it.
        var leftOut: [MergeEntity: MergeRefusal] = [:]
        planning: while true {
            var state = current
            var commands: [Command] = []
            var added: [MergeEntity] = []
            var addedSet: Set<MergeEntity> = []
            var refused = leftOut
            for step in steps where refused[step.entity] == nil {
                let command = Command(
                    commandID: CommandID.derived(namespace: household.id.value, name: "\(batch) \(commands.count)"),
                    actor: step.actor ?? actor, recordedAt: options.recordedAt, action: step.action)
                do throws(LedgerError) {
                    state = try state.applying(command)
                    commands.append(command)
                    if addedSet.insert(step.entity).inserted { added.append(step.entity) }
                } catch {
                    let violation: RuleViolation? = if case .rejected(let violation) = error { violation } else { nil }
                    let refusal = MergeRefusal(
                        entity: step.entity, code: error.code, rule: violation?.rule ?? "", message: violation?.message ?? error.message)
                    if addedSet.contains(step.entity) {
                        leftOut[step.entity] = refusal
                        continue planning
                    }
                    refused[step.entity] = refusal
                }
            }
            plan.commands = commands
            plan.new = added
            // In the order the entities are added.
            var seen: Set<MergeEntity> = []
            plan.refused = steps.compactMap { step in seen.insert(step.entity).inserted ? refused[step.entity] : nil }
            break
        }
        return plan
    }

    /// Merges the backup into `ledger` (Swiff 2.4.3): the commands of
    /// ``mergePlan(into:options:)`` executed as one batch, all or nothing (G6). A merge of the
    /// same backup again adds nothing (every entity is kept).
    ///
    /// - Returns: the plan it executed.
    /// - Throws: what ``mergePlan(into:options:)`` throws; `mergeRefused` naming the first
    ///   refused entity, its rule and the number refused, unless ``MergeOptions/skippingRefused``
    ///   (nothing is written); `invalidBatch` when the merge has more commands than one batch
    ///   holds (`LedgerOptions.commandsPerBatchMax`); a journal code when the write fails.
    @discardableResult
    public func merge(into ledger: Ledger, options: MergeOptions) async throws(InterchangeError) -> MergePlan {
        let plan = try await mergePlan(into: ledger, options: options)
        if let first = plan.refused.first, !options.skippingRefused {
            throw InterchangeError(code: "mergeRefused", message: "\(first.entity) is refused by \(first.rule.isEmpty ? first.code : "\(first.rule) (\(first.code))"): \(first.message)\(plan.refused.count > 1 ? "; \(plan.refused.count - 1) more refused" : ""); nothing was merged (preview with --dry-run; --skip-refused adds the rest)")
        }
        guard !plan.commands.isEmpty else { return plan }
        do throws(LedgerError) {
            try await ledger.execute(plan.commands)
        } catch .rejected(let violation) {
            // The ledger changed since the plan was made (another writer): nothing was written.
            throw InterchangeError(code: "mergeRefused", message: "command \(violation.commandIndex + 1) of the merge is refused by \(violation.rule) (\(violation.code.rawValue)): \(violation.message); nothing was merged")
        } catch {
            throw InterchangeError(code: error.code, message: "\(error.message); nothing was merged")
        }
        return plan
    }

    /// The backup restored (verified, audited) into `NAME.merging` beside the ledger, with
    /// the ledger's encryption at rest and, for a backup without keys, the ledger's keys.
    private func restoredCopy(beside ledger: Ledger, options: MergeOptions) async throws(InterchangeError) -> FilePath {
        let temporary = FilePath(ledger.directory.string + ".merging")
        try Self.remove(temporary)  // left by a merge a crash interrupted
        var restore = RestoreOptions()
        restore.acceptingUnverifiedFormat = options.acceptingUnverifiedFormat
        restore.unlock = options.unlock
        restore.encryption = ledger.options.encryption
        restore.acceptingUnreadableTexts = options.acceptingUnreadableTexts
        restore.keysFromLedger = ledger.directory
        do throws(InterchangeError) {
            try await self.restore(into: temporary, options: restore)
        } catch {
            try? Self.remove(temporary)
            throw error
        }
        return temporary
    }

    /// Removes the merge's temporary ledger, if it is there.
    private static func remove(_ temporary: FilePath) throws(InterchangeError) {
        guard FileManager.default.fileExists(atPath: temporary.string) else { return }
        do { try FileManager.default.removeItem(atPath: temporary.string) } catch {
            throw InterchangeError(code: "ioFailure", message: "cannot remove the merge's temporary ledger \(temporary): \(error)")
        }
    }

    /// Sorts every entity of `backup` into new (its commands, returned), kept and differs by
    /// whether `current` has its id and the same value.
    private static func entityCommands(from backup: LedgerState, comparedWith current: LedgerState, into plan: inout MergePlan) -> EntityCommands {
        var commands = EntityCommands()
        /// Lists an entity `current` has as kept or differs; true when it is new (absent here,
        /// live in the backup).
        func classify(_ kind: MergeEntity.Kind, _ id: String, present: Bool, same: Bool, live: Bool) -> Bool {
            let entity = MergeEntity(kind: kind, id: id)
            if present {
                if same { plan.kept.append(entity) } else { plan.differs.append(entity) }
                return false
            }
            return live
        }
        for (id, person) in backup.people.sorted(by: { $0.key < $1.key }) {
            let here = current.people[id]
            guard classify(.person, id.description, present: here != nil, same: here.map { Self.same(person, $0) } ?? false,
                       live: !person.isForgotten && !person.name.isRedacted && !person.isRemoved),
                  let name = person.name.text else { continue }
            commands.addPerson(id, name: name, email: person.email?.text, phone: person.phone?.text, avatar: person.avatar,
                isArchived: person.isArchived)
        }
        for id in backup.categoryOrder {
            guard let category = backup.categories[id] else { continue }
            let here = current.categories[id]
            guard classify(.category, id.description, present: here != nil, same: here == category, live: !category.isDeleted) else { continue }
            commands.addCategory(
                id, name: category.name, group: category.group, budgetType: category.budgetType, shareable: category.shareable,
                icon: category.icon, color: category.color, taxClass: category.taxClass, isActive: category.isActive)
        }
        for (id, wallet) in backup.wallets.sorted(by: { $0.key < $1.key }) {
            let here = current.wallets[id]
            guard classify(.wallet, id.description, present: here != nil, same: here == wallet, live: true) else { continue }
            commands.addWallet(
                id, name: wallet.name, kind: wallet.kind, openingBalance: wallet.openingBalance, openedOn: wallet.openedOn,
                owner: wallet.owner, valuation: wallet.valuation, isActive: wallet.isActive, closedOn: wallet.closedOn)
        }
        for id in backup.wallets.keys.sorted() {
            // The last point of a date is the wallet's balance on it (W5).
            var points: [LocalDate: Money] = [:]
            for point in backup.readModels.wallets.balancePoints(of: id) { points[point.date] = point.balance }
            for (date, balance) in points.sorted(by: { $0.key < $1.key }) {
                let here = current.readModels.wallets.balancePoint(of: id, on: date)
                guard classify(.balancePoint, "\(id) \(date)", present: here != nil, same: here == balance, live: true) else { continue }
                commands.addBalancePoint(id, date: date, balance: balance)
            }
        }
        let householdRatios = current.effectiveRatios()
        for (id, record) in backup.transactions.allEntries.sorted(by: { $0.value.sequenceNumber < $1.value.sequenceNumber }) {
            let here = current.transactions[id]
            let same = here?.hasSameContent(as: record) ?? false
            guard classify(.transaction, id.description, present: here != nil, same: same, live: record.isLive) else { continue }
            commands.addTransaction(
                id, details: record.details, splitWith: record.splitWith, originalAmount: record.originalAmount,
                payee: record.payee, subtitle: record.subtitle, householdRatios: householdRatios)
        }
        for (id, record) in backup.transfers.allEntries.sorted(by: { $0.value.sequenceNumber < $1.value.sequenceNumber }) {
            let here = current.transfers[id]
            let same = here.map { $0.isLive == record.isLive && $0.transfer == record.transfer } ?? false
            guard classify(.transfer, id.description, present: here != nil, same: same, live: record.isLive) else { continue }
            commands.addTransfer(record.transfer)
        }
        return commands
    }

    /// Whether two ledgers hold the same person: the same texts and states (a forgetting is
    /// compared as a state, not by when it happened).
    private static func same(_ lhs: PersonRecord, _ rhs: PersonRecord) -> Bool {
        lhs.name == rhs.name && lhs.email == rhs.email && lhs.phone == rhs.phone && lhs.avatar == rhs.avatar
            && lhs.isMember == rhs.isMember && lhs.isRemoved == rhs.isRemoved && lhs.isArchived == rhs.isArchived
            && lhs.isForgotten == rhs.isForgotten
    }
}
