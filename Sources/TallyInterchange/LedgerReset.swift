import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyProjections

/// Starting over (seed 001 US-704 "Delete all data", Docs/Editing.md "Owning one's data"): a
/// new ledger for the same household, built from the facts the user chooses to keep, in the
/// place of the old one, which is kept beside it (`<name>.replaced-N`).
///
/// The old journal is never rewritten (G4): the kept facts are recorded again as new commands
/// (``commands(from:keeping:on:recordedAt:)``) into a new journal, which must audit clean
/// before it takes the old ledger's place (the same swap as a restore with replace).
///
/// Always kept: the household (id, name, base currency, admin) and its people (members and
/// contacts not removed or forgotten, with their e-mail and phone; archived ones archived
/// again). Never kept: transactions, transfers, templates, settlements, group expenses,
/// balance points, periods and settings.
public enum LedgerReset {
    /// What a reset keeps besides the household and its people.
    public struct Keep: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Every wallet not closed, opened again on the reset date with its current balance
        /// as the opening balance (a wallet's balance is a fact about the account, not
        /// history), deactivated again when it was.
        public static let wallets = Keep(rawValue: 1 << 0)
        /// Custom categories (same ids), preset names and deactivations; otherwise the
        /// presets come back as they are for a new household ("categories reset to defaults").
        public static let categories = Keep(rawValue: 1 << 1)
        /// Each category's current allocation, from the open period on.
        public static let budgets = Keep(rawValue: 1 << 2)
        /// Groups not deleted, with their members (no expenses), archived again when they were.
        public static let groups = Keep(rawValue: 1 << 3)

        /// US-704: transactions and budgets deleted, categories reset to defaults; the
        /// accounts stay.
        public static let standard: Keep = [.wallets]

        /// The names `tally reset --keep` takes.
        public static let names: [(String, Keep)] = [("wallets", .wallets), ("categories", .categories), ("budgets", .budgets), ("groups", .groups)]
    }

    /// What a reset did.
    public struct Report: Sendable, Equatable {
        /// Where the old ledger was kept.
        public var replacedLedgerKeptAt: FilePath
        /// How many commands built the new ledger.
        public var commandCount: Int
    }

    /// The commands that build the kept facts of `history` into a new ledger, recorded at
    /// `recordedAt` by the admin, wallets opened `on`. Command ids derive from the household
    /// id and `recordedAt`, so the same reset gives the same commands (G5).
    ///
    /// - Throws: `resetNoHousehold` when the ledger holds no household.
    public static func commands(
        from history: LedgerHistory, keeping keep: Keep, on date: LocalDate, recordedAt: Timestamp
    ) throws(InterchangeError) -> [Command] {
        let state = history.state
        guard let household = state.household else {
            throw InterchangeError(code: "resetNoHousehold", message: "the ledger holds no household; there is nothing to keep (delete the folder instead)")
        }
        var commands: [Command] = []
        func add(_ action: CommandAction) {
            let id = CommandID.derived(namespace: household.id.value, name: "reset \(recordedAt.millisecondsSinceEpoch) \(commands.count)")
            commands.append(Command(commandID: id, actor: household.admin, recordedAt: recordedAt, action: action))
        }
        let adminName = state.people[household.admin]?.name.text ?? "Admin"
        add(.createHousehold(householdID: household.id, name: household.name, baseCurrency: household.baseCurrency, adminName: adminName))
        var keptPeople: Set<PersonID> = [household.admin]
        for (id, person) in state.people.sorted(by: { $0.key < $1.key }) where id != household.admin {
            guard !person.isRemoved, !person.isForgotten, let name = person.name.text else { continue }
            add(person.isMember ? .addMember(personID: id, name: name) : .addPerson(personID: id, name: name))
            keptPeople.insert(id)
            if person.isArchived { add(.archivePerson(personID: id)) }
        }
        for (id, person) in state.people.sorted(by: { $0.key < $1.key }) where keptPeople.contains(id) {
            guard let name = person.name.text, person.email?.text != nil || person.phone?.text != nil else { continue }
            add(.updatePerson(personID: id, name: name, email: person.email?.text, phone: person.phone?.text))
        }
        if keep.contains(.wallets) {
            let balances: [WalletBalance]
            do { balances = try history.readModels.wallets.balances() } catch {
                throw InterchangeError(code: error.code, message: error.message)
            }
            for wallet in balances.sorted(by: { $0.walletID < $1.walletID }) where wallet.closedOn == nil {
                let owner = wallet.owner.flatMap { keptPeople.contains($0) ? $0 : nil }
                add(.openWallet(walletID: wallet.walletID, name: wallet.name, kind: wallet.kind, openingBalance: wallet.balance,
                                openedOn: date, owner: owner, valuation: wallet.valuation == wallet.kind.defaultValuation ? nil : wallet.valuation))
                if !wallet.isActive { add(.deactivateWallet(walletID: wallet.walletID)) }
            }
        }
        let presets = Dictionary(uniqueKeysWithValues: CategoryPresets.all.map { ($0.categoryID(in: household.id), $0) })
        var keptCategories = Set(presets.keys)
        if keep.contains(.categories) {
            for id in state.categoryOrder {
                guard let category = state.categories[id], !category.isDeleted else { continue }
                if let preset = presets[id] {
                    if category.name != preset.name { add(.renameCategory(categoryID: id, name: category.name)) }
                } else {
                    add(.createCategory(categoryID: id, name: category.name, group: category.group, budgetType: category.budgetType,
                                        shareable: category.shareable, icon: category.icon, color: category.color))
                    keptCategories.insert(id)
                }
                if !category.isActive { add(.deactivateCategory(categoryID: id)) }
            }
        }
        if keep.contains(.budgets) {
            var latest: [CategoryID: (LocalDate, Money?)] = [:]
            for entry in history.readModels.budgets.allocationEntries where keptCategories.contains(entry.categoryID) {
                latest[entry.categoryID] = (entry.fromPeriod, entry.amount)  // by first period: the last is in force
            }
            for (category, entry) in latest.sorted(by: { $0.key < $1.key }) {
                guard let amount = entry.1 else { continue }
                add(.allocateBudget(categoryID: category, amount: amount, fromPeriod: nil))
            }
        }
        if keep.contains(.groups) {
            for (id, group) in state.groups.sorted(by: { $0.key < $1.key }) where !group.isDeleted {
                let members = group.members.filter { keptPeople.contains($0) }
                guard !members.isEmpty else { continue }
                add(.createGroup(groupID: id, name: group.name, members: members))
                if group.isArchived { add(.archiveGroup(groupID: id)) }
            }
        }
        return commands
    }

    /// Resets the ledger at `directory`: builds the new ledger beside it from
    /// ``commands(from:keeping:on:recordedAt:)``, audits it, and puts it in the old one's
    /// place with the swap a restore uses (Docs/Interchange.md: an intent record written and
    /// synced before the first rename, so a crash is finished by the next open); the old ledger
    /// is kept beside it. Encrypted at rest with `encryption` (required when the old ledger is
    /// encrypted: its key file must open with it). A reset that a crash interrupted after its
    /// record was written is finished first (then this one resets the reset ledger again).
    ///
    /// - Parameter fileSystem: every file operation of the reset goes through it (tests
    ///   inject faults and crashes); default POSIX.
    /// - Throws: `resetNoHousehold`, `restoreWouldDecrypt`, `replaceRefused` (the ledger is
    ///   open for writing), `restoreInProgress` (another restore or reset of it is running),
    ///   `swapInterrupted` (an earlier swap of the path cannot be settled: the message names
    ///   the folders), a rule code if a kept fact is refused (nothing is changed), a journal
    ///   code when the ledger cannot be read or written.
    public static func reset(
        ledgerAt directory: FilePath, keeping keep: Keep, on date: LocalDate, recordedAt: Timestamp,
        encryption: JournalEncryption? = nil, fileSystem: any FileSystem = PosixFileSystem()
    ) async throws(InterchangeError) -> Report {
        let target = LedgerDirectory(directory)
        do throws(LedgerError) {
            _ = try Ledger.recoverInterruptedSwap(at: directory, fileSystem: fileSystem)
            try LedgerSwap.requireNotSynced(target, fileSystem: fileSystem)
        } catch {
            throw InterchangeError(code: error.code, message: "\(error.message); the ledger was not reset")
        }
        let history = try LedgerHistory.load(at: directory, encryption: encryption)
        _ = try LedgerBackup.keysOfLedger(at: directory, encryption: encryption)
        let commands = try Self.commands(from: history, keeping: keep, on: date, recordedAt: recordedAt)
        let lock: any FileLock
        do throws(LedgerError) {
            lock = try LedgerSwap.lockRestoring(target, fileSystem: fileSystem)
        } catch {
            throw InterchangeError(code: error.code, message: "\(error.message); the ledger was not reset")
        }
        defer { lock.unlock() }
        do throws(LedgerError) {
            let temporary = target.restoring
            try await Ledger.create(at: temporary, encryption: encryption, executing: commands, fileSystem: fileSystem, folderLockedByCaller: true)
            let audit = try LedgerAudit.audit(at: temporary, encryption: encryption, fileSystem: fileSystem)
            guard audit.isClean else { throw .restoredLedgerInvalid(problems: audit.problems.map(\.description)) }
        } catch {
            LedgerSwap.discard(target, fileSystem: fileSystem)
            throw InterchangeError(code: error.code, message: "\(error.message); the ledger was not reset")
        }
        do throws(LedgerError) {
            // The swap's errors say themselves whether anything changed.
            let kept = try LedgerSwap.commitReplacing(target, operation: .reset, fileSystem: fileSystem)
            return Report(replacedLedgerKeptAt: kept, commandCount: commands.count)
        } catch {
            throw InterchangeError(code: error.code, message: error.message)
        }
    }
}
