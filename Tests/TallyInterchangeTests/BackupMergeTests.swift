import Foundation
import SystemPackage
import Tally
@testable import TallyInterchange
import TallyModel
import TallyProjections
import Testing

/// Swiff 2.4.3 "Import: replace all or merge (add new, keep existing), preview first": a
/// backup merged into a ledger adds, through the ledger's commands (every rule checks them),
/// the entities the ledger does not have and keeps the ones it has; the preview writes nothing.
@Suite("Backup merge (Swiff 2.4.3)", .serialized)
struct BackupMergeTests {
    static let alice = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0001))
    static let bob = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0002))
    static let joint = WalletID(UUIDValue(high: 0x0000_0003_0000_4000, low: 0x8000_0000_0000_0001))
    static let savings = WalletID(UUIDValue(high: 0x0000_0003_0000_4000, low: 0x8000_0000_0000_0002))
    static let bobCash = WalletID(UUIDValue(high: 0x0000_0003_0000_4000, low: 0x8000_0000_0000_0003))
    /// The household example's income category (a preset).
    static let salary = CategoryID(UUIDValue(high: 0x7560_dedf_75b0_86ad, low: 0xaba5_b40b_ed65_c432))
    static let rent = CategoryID(UUIDValue(high: 0x0000_0004_0000_4000, low: 0x8000_0000_0000_0001))
    static let recordedAt = Timestamp(millisecondsSinceEpoch: 1_775_000_000_000)

    /// The household example with a zero wallet "Spare" (W4 lets it close), backed up and
    /// restored into a copy beside it.
    struct Pair {
        var ledger: FilePath
        var copy: FilePath
        var spare: WalletID
        var ids = DeterministicIDGenerator(seed: 2_403)

        mutating func command(_ action: CommandAction, actor: PersonID = BackupMergeTests.alice) -> Command {
            Command(commandID: ids.next(), actor: actor, recordedAt: BackupMergeTests.recordedAt, action: action)
        }

        mutating func execute(_ actions: [(CommandAction, PersonID)], in directory: FilePath) async throws {
            let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .synchronous))
            for (action, actor) in actions { try await ledger.execute(command(action, actor: actor)) }
            try await ledger.close()
        }

        /// The copy's backup, as a file would hold it.
        func copyBackup() throws -> LedgerBackup {
            try LedgerBackup.decode(try LedgerBackup.make(from: copy, protection: .key(BackupRestoreTests.backupKey)).encoded())
        }
    }

    static func pair() async throws -> Pair {
        let (directory, _) = try await InterchangeLedgerTests.makeLedger()
        var pair = Pair(ledger: directory, copy: FilePath(directory.string + "-copy"), spare: WalletID(UUIDValue(high: 0x0000_0003_0000_4000, low: 0x8000_0000_0000_00f1)))
        try await pair.execute([(.openWallet(
            walletID: pair.spare, name: "Spare", kind: .cash, openingBalance: Money(minorUnits: 0, currency: .chf),
            openedOn: try LocalDate(iso: "2026-01-01")), alice)], in: directory)
        let backup = try LedgerBackup.make(from: directory, protection: .key(BackupRestoreTests.backupKey))
        try await backup.restore(into: pair.copy, options: BackupRestoreTests.unlocked)
        return pair
    }

    static var options: LedgerBackup.MergeOptions {
        var options = LedgerBackup.MergeOptions(recordedAt: recordedAt)
        options.unlock = .key(BackupRestoreTests.backupKey)
        return options
    }

    static func chf(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .chf) }

    static func balance(_ wallet: WalletID, in history: LedgerHistory) throws -> Int64 {
        try #require(try history.readModels.wallets.balance(of: wallet)).minorUnits
    }

    @Test("Swiff 2.4.3: the preview lists exactly the copy's new entries; the merge adds them (balances sum), keeps the ledger's, and a second merge adds nothing")
    func mergeAddsNewKeepsExisting() async throws {
        var pair = try await Self.pair()
        let date = try LocalDate(iso: "2026-03-20")
        // Only the ledger: an expense in Bob's cash.
        let ledgerOnly: TransactionID = pair.ids.next()
        try await pair.execute([(.recordTransaction(transactionID: ledgerOnly, entry: TransactionEntry(
            kind: .expense, amount: Self.chf(1_000), walletID: Self.bobCash, categoryID: Self.rent, date: date)), Self.bob)], in: pair.ledger)
        // Only the copy: a contact, a category, a personal expense with Bob's note, a shared
        // rent (household split 60/40, S1), a transfer; and a deleted expense (not brought).
        let dave: PersonID = pair.ids.next()
        let garden: CategoryID = pair.ids.next()
        let (plants, shared, deleted): (TransactionID, TransactionID, TransactionID) = (pair.ids.next(), pair.ids.next(), pair.ids.next())
        let transfer: TransferID = pair.ids.next()
        let (holiday, trip): (WalletID, TransactionID) = (pair.ids.next(), pair.ids.next())
        let pointDate = try LocalDate(iso: "2026-03-21")
        try await pair.execute([
            (.addPerson(personID: dave, name: "Dave"), Self.alice),
            (.updatePerson(personID: dave, name: "Dave", email: "dave@example.org"), Self.alice),
            (.setPersonAvatar(personID: dave, emoji: "🌱", color: "#4CAF50"), Self.alice),
            (.openWallet(walletID: holiday, name: "Holiday", kind: .savings, openingBalance: Self.chf(30_000), openedOn: try LocalDate(iso: "2026-03-01")), Self.alice),
            (.recordBalance(walletID: holiday, date: pointDate, balance: Self.chf(28_000)), Self.alice),
            (.createCategory(categoryID: garden, name: "Garden", group: .expense), Self.alice),
            (.recordTransaction(transactionID: plants, entry: TransactionEntry(
                kind: .expense, amount: Self.chf(2_500), walletID: Self.joint, categoryID: garden, date: date, note: "Plants", payer: Self.bob)), Self.bob),
            (.recordTransaction(transactionID: shared, entry: TransactionEntry(
                kind: .expense, amount: Self.chf(9_001), walletID: Self.joint, categoryID: Self.rent, date: date, note: "March",
                shared: true)), Self.alice),
            // Bob adds the title (Swiff 1.1.2); Alice's note stays hers.
            (.editTransaction(transactionID: shared, entry: TransactionEntry(
                kind: .expense, amount: Self.chf(9_001), walletID: Self.joint, categoryID: Self.rent, date: date, note: "March",
                shared: true, payee: "Landlord AG", subtitle: "rent")), Self.bob),
            (.recordTransaction(transactionID: deleted, entry: TransactionEntry(
                kind: .expense, amount: Self.chf(700), walletID: Self.joint, categoryID: garden, date: date)), Self.alice),
            (.deleteTransaction(transactionID: deleted), Self.alice),
            (.recordTransaction(transactionID: trip, entry: TransactionEntry(
                kind: .expense, amount: Self.chf(1_500), walletID: holiday, categoryID: garden, date: date)), Self.alice),
            (.recordTransfer(transferID: transfer, fromWalletID: Self.joint, toWalletID: Self.savings, amountSent: Self.chf(5_000), date: date), Self.alice),
        ], in: pair.copy)
        let backup = try pair.copyBackup()
        let before = try LedgerHistory.load(at: pair.ledger)
        let copy = try LedgerHistory.load(at: pair.copy)

        let ledger = try await Ledger.open(at: pair.ledger, options: LedgerOptions(durability: .synchronous))
        let preview = try await backup.mergePlan(into: ledger, options: Self.options)
        let expected: Set<LedgerBackup.MergeEntity> = [
            .init(kind: .person, id: dave.description), .init(kind: .category, id: garden.description),
            .init(kind: .transaction, id: plants.description), .init(kind: .transaction, id: shared.description),
            .init(kind: .transfer, id: transfer.description), .init(kind: .wallet, id: holiday.description),
            .init(kind: .balancePoint, id: "\(holiday) \(pointDate)"), .init(kind: .transaction, id: trip.description),
        ]
        #expect(Set(preview.new) == expected)
        #expect(preview.new.count == expected.count)
        #expect(preview.refused.isEmpty)
        #expect(preview.differs.isEmpty, "\(preview.differs)")
        #expect(LedgerBackup.MergePlan.count(.wallet, in: preview.kept) == before.state.wallets.count)
        #expect(try await LedgerHistory.load(from: ledger).lastSequenceNumber == before.lastSequenceNumber, "the preview writes nothing")

        let merged = try await backup.merge(into: ledger, options: Self.options)
        #expect(merged.new == preview.new)
        let after = try await LedgerHistory.load(from: ledger)
        #expect(try Self.balance(Self.joint, in: after) == Self.balance(Self.joint, in: before) - 2_500 - 9_001 - 5_000)
        #expect(try Self.balance(Self.joint, in: after) == Self.balance(Self.joint, in: copy), "the copy's entries in the joint account, all of them")
        #expect(try Self.balance(Self.savings, in: after) == Self.balance(Self.savings, in: before) + 5_000)
        #expect(try Self.balance(Self.bobCash, in: after) == Self.balance(Self.bobCash, in: before), "the ledger's own entry stays")
        #expect(after.state.transactions[ledgerOnly] == before.state.transactions[ledgerOnly])
        #expect(after.state.transactions[deleted] == nil, "a deleted entry of the backup is not brought (T3)")
        // Every field as the copy holds it: the split's shares (G4), the note sealed as Bob's (P1).
        #expect(after.state.transactions[shared]?.details == copy.state.transactions[shared]?.details)
        #expect(after.state.transactions[plants]?.details == copy.state.transactions[plants]?.details)
        #expect(after.state.transactions[plants]?.details.note == PersonalText("Plants", owner: Self.bob))
        // Texts of two writers keep their owners (P1): Alice's note, Bob's payee and subtitle.
        #expect(after.state.transactions[shared]?.details.note == PersonalText("March", owner: Self.alice))
        #expect(after.state.transactions[shared]?.payee == PersonalText("Landlord AG", owner: Self.bob))
        #expect(after.state.transactions[shared]?.subtitle == PersonalText("rent", owner: Self.bob))
        #expect(after.state.people[dave]?.isMember == false, "a person the ledger lacks comes as a contact (H6)")
        #expect(after.state.people[dave] == copy.state.people[dave], "with e-mail and avatar")
        #expect(after.state.categories[garden] == copy.state.categories[garden])
        #expect(after.state.transfers[transfer]?.transfer == copy.state.transfers[transfer]?.transfer)
        // A new wallet with its opening data, its entry and its balance point (W5).
        #expect(after.state.wallets[holiday] == copy.state.wallets[holiday])
        #expect(try Self.balance(holiday, in: after) == 30_000 - 1_500)
        #expect(after.readModels.wallets.balancePoints(of: holiday).map { [$0.date: $0.balance] } == [[pointDate: Self.chf(28_000)]])

        let again = try await backup.merge(into: ledger, options: Self.options)
        #expect(again.new.isEmpty && again.commands.isEmpty && again.refused.isEmpty, "merging the same backup twice adds nothing")
        #expect(try await LedgerHistory.load(from: ledger).lastSequenceNumber == after.lastSequenceNumber)
        try await ledger.close()
        #expect(!FileManager.default.fileExists(atPath: pair.ledger.string + ".merging"), "the temporary ledger is removed")
    }

    @Test("Swiff 2.4.3, W4: an entry into a wallet the ledger closed is refused in the preview with its rule; the merge fails whole unless refused ones are skipped")
    func refusedEntityFailsTheMergeAtomically() async throws {
        var pair = try await Self.pair()
        let date = try LocalDate(iso: "2026-03-20")
        try await pair.execute([(.closeWallet(walletID: pair.spare, closedOn: date), Self.alice)], in: pair.ledger)
        let (intoSpare, fine): (TransactionID, TransactionID) = (pair.ids.next(), pair.ids.next())
        try await pair.execute([
            (.recordTransaction(transactionID: intoSpare, entry: TransactionEntry(
                kind: .income, amount: Self.chf(4_000), walletID: pair.spare, categoryID: Self.salary, date: date)), Self.alice),
            (.renameWallet(walletID: Self.joint, name: "Joint (old bank)"), Self.alice),
            (.recordTransaction(transactionID: fine, entry: TransactionEntry(
                kind: .expense, amount: Self.chf(1_200), walletID: Self.joint, categoryID: Self.rent, date: date)), Self.alice),
        ], in: pair.copy)
        let backup = try pair.copyBackup()
        let ledger = try await Ledger.open(at: pair.ledger, options: LedgerOptions(durability: .synchronous))
        let before = try await LedgerHistory.load(from: ledger)
        let preview = try await backup.mergePlan(into: ledger, options: Self.options)
        let refused = try #require(preview.refused.first)
        #expect(preview.refused.count == 1)
        #expect(refused.entity == .init(kind: .transaction, id: intoSpare.description))
        #expect(refused.code == "walletInactive" && refused.rule == "W4", "\(refused)")
        #expect(preview.new == [.init(kind: .transaction, id: fine.description)])
        #expect(Set(preview.differs) == [.init(kind: .wallet, id: pair.spare.description), .init(kind: .wallet, id: Self.joint.description)],
                "closed here, open there; renamed there: the ledger's stay")

        await #expect {
            try await backup.merge(into: ledger, options: Self.options)
        } throws: { error in
            let error = error as? InterchangeError
            return error?.code == "mergeRefused" && error?.message.contains("transaction \(intoSpare)") == true
                && error?.message.contains("W4") == true
        }
        #expect(try await LedgerHistory.load(from: ledger).lastSequenceNumber == before.lastSequenceNumber, "nothing was merged")

        var skipping = Self.options
        skipping.skippingRefused = true
        let merged = try await backup.merge(into: ledger, options: skipping)
        #expect(merged.new == [.init(kind: .transaction, id: fine.description)])
        let after = try await LedgerHistory.load(from: ledger)
        #expect(after.state.transactions[fine] != nil && after.state.transactions[intoSpare] == nil)
        #expect(after.state.wallets[Self.joint]?.name == "Joint account", "the ledger's name is kept")
        try await ledger.close()
    }

    @Test("Swiff 2.4.3: a damaged backup is refused before anything is merged (backupChainMismatch)")
    func damagedBackupIsRefused() async throws {
        let pair = try await Self.pair()
        let backup = try pair.copyBackup()
        let (flipped, sequenceNumber) = try BackupIntegrityTests.flippingAnAmount(in: backup)
        let ledger = try await Ledger.open(at: pair.ledger, options: LedgerOptions(durability: .synchronous))
        let before = try await LedgerHistory.load(from: ledger)
        for dryRun in [true, false] {
            await #expect {
                if dryRun {
                    _ = try await flipped.mergePlan(into: ledger, options: Self.options)
                } else {
                    try await flipped.merge(into: ledger, options: Self.options)
                }
            } throws: { error in
                (error as? InterchangeError)?.code == "backupChainMismatch" && (error as? InterchangeError)?.message.contains("record \(sequenceNumber) ") == true
            }
        }
        #expect(try await LedgerHistory.load(from: ledger).lastSequenceNumber == before.lastSequenceNumber)
        try await ledger.close()
        #expect(!FileManager.default.fileExists(atPath: pair.ledger.string + ".merging"))
    }

    @Test("Swiff 2.4.3: a backup of another household is refused (mergeHouseholdMismatch): ids match only within one household")
    func otherHouseholdIsRefused() async throws {
        let pair = try await Self.pair()
        let other = FilePath(pair.ledger.string + "-other")
        let created = try await Ledger.open(at: other, options: LedgerOptions(durability: .synchronous))
        try await created.execute(Command(
            commandID: CommandID(UUIDValue(high: 0x0000_000c_0000_4000, low: 0x8000_0000_0000_00f1)), actor: Self.alice, recordedAt: Self.recordedAt,
            action: .createHousehold(householdID: HouseholdID(UUIDValue(high: 0x0000_0001_0000_4000, low: 0x8000_0000_0000_00f1)), name: "Other", baseCurrency: .chf, adminName: "Alice")))
        try await created.close()
        let backup = try LedgerBackup.make(from: other, protection: .key(BackupRestoreTests.backupKey))
        let ledger = try await Ledger.open(at: pair.ledger, options: LedgerOptions(durability: .synchronous))
        await #expect { try await backup.mergePlan(into: ledger, options: Self.options) } throws: { error in
            (error as? InterchangeError)?.code == "mergeHouseholdMismatch"
        }
        try await ledger.close()
    }
}
