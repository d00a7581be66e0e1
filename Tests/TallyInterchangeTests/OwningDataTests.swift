import Foundation
import SystemPackage
import Tally
@testable import TallyInterchange
import TallyJournal
import TallyModel
import Testing

/// Starting over and leaving with one's data (issue 18 items 10 and 12; Docs/Editing.md
/// "Owning one's data"): `LedgerReset` (US-704) and `PersonalDataImport` (US-008).
@Suite("Owning one's data", .serialized)
struct OwningDataTests {
    static let resetAt = Timestamp(millisecondsSinceEpoch: 1_772_600_000_000)
    static func resetOn() throws -> LocalDate { try LocalDate(iso: "2026-03-04") }

    static func balances(_ history: LedgerHistory) throws -> [WalletID: Money] {
        Dictionary(uniqueKeysWithValues: try history.readModels.wallets.balances().filter { $0.closedOn == nil }.map { ($0.walletID, $0.balance) })
    }

    @Test("US-704, G4: reset keeps the household, its people and the wallets at their balances; transactions and budgets are gone, categories back to the presets; the old ledger is kept whole beside it")
    func resetKeepsWhatTheUserChooses() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let before = try history.readModels.canonicalJSON().serialized()
        let report = try await LedgerReset.reset(ledgerAt: directory, keeping: .standard, on: try Self.resetOn(), recordedAt: Self.resetAt)
        let reset = try LedgerHistory.load(at: directory)
        #expect(reset.state.household == history.state.household)
        let people = history.state.people.filter { !$0.value.isRemoved && !$0.value.isForgotten }
        #expect(Set(reset.state.people.keys) == Set(people.keys))
        #expect(reset.state.people.allSatisfy { $0.value.name == history.state.people[$0.key]?.name }, "names carried over, readable")
        #expect(try Self.balances(reset) == Self.balances(history), "every open wallet at its balance")
        #expect(reset.state.transactions.allEntries.isEmpty && reset.state.transfers.allEntries.isEmpty)
        #expect(reset.readModels.budgets.allocationEntries.isEmpty)
        #expect(reset.state.categories.values.allSatisfy(\.isPreset) && reset.state.categories.count == CategoryPresets.all.count)
        #expect(try LedgerAudit.audit(at: directory).isClean)
        #expect(report.replacedLedgerKeptAt == LedgerDirectory(directory).replaced(number: 1))
        let kept = try LedgerHistory.load(at: report.replacedLedgerKeptAt)
        #expect(kept.lastSequenceNumber == history.lastSequenceNumber, "the old journal is never rewritten (G4)")
        #expect(try kept.readModels.canonicalJSON().serialized() == before)
    }

    @Test("US-704: reset keeping categories and groups recreates the custom categories and groups with their ids; nothing of the old journal is copied")
    func resetKeepingCategoriesAndGroups() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        _ = try await LedgerReset.reset(ledgerAt: directory, keeping: [.wallets, .categories, .groups], on: try Self.resetOn(), recordedAt: Self.resetAt)
        let reset = try LedgerHistory.load(at: directory)
        let live = history.state.categories.filter { !$0.value.isDeleted }
        #expect(Set(reset.state.categories.keys) == Set(live.keys))
        #expect(reset.state.categories.allSatisfy { $0.value.name == live[$0.key]?.name })
        let groups = history.state.groups.filter { !$0.value.isDeleted }
        #expect(Set(reset.state.groups.keys) == Set(groups.keys) && !groups.isEmpty)
        #expect(reset.state.groupExpenses.allEntries.isEmpty)
        #expect(reset.lastSequenceNumber < history.lastSequenceNumber)
    }

    @Test("US-704: reset keeping budgets allocates each category's current budget again, from the open period")
    func resetKeepingBudgets() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        var latest: [CategoryID: (LocalDate, Money?)] = [:]
        for entry in history.readModels.budgets.allocationEntries where (latest[entry.categoryID]?.0).map({ $0 <= entry.fromPeriod }) ?? true {
            latest[entry.categoryID] = (entry.fromPeriod, entry.amount)
        }
        let expected = latest.compactMapValues { $0.1 }
        #expect(!expected.isEmpty, "the example household has budgets")
        _ = try await LedgerReset.reset(ledgerAt: directory, keeping: [.categories, .budgets], on: try Self.resetOn(), recordedAt: Self.resetAt)
        let reset = try LedgerHistory.load(at: directory)
        let kept = Dictionary(uniqueKeysWithValues: reset.readModels.budgets.allocationEntries.compactMap { entry in entry.amount.map { (entry.categoryID, $0) } })
        #expect(kept == expected)
        #expect(reset.state.wallets.isEmpty, "wallets were not asked for")
    }

    @Test("US-704, encryption at rest: a reset needs the ledger's key and the new ledger is encrypted with it")
    func resetKeepsEncryptionAtRest() async throws {
        let directory = try BackupKeyTests.scratch().appending("ledger")
        var options = LedgerOptions(durability: .none)
        let encryption = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 3, count: 32))
        options.encryption = encryption
        let ledger = try await Ledger.open(at: directory, options: options)
        for command in try CommandParser.parse(lines: String(contentsOf: InterchangeLedgerTests.household, encoding: .utf8)) { try await ledger.execute(command) }
        try await ledger.close()
        await #expect { try await LedgerReset.reset(ledgerAt: directory, keeping: .standard, on: try Self.resetOn(), recordedAt: Self.resetAt) } throws: { error in
            (error as? InterchangeError)?.code == "encryptionKeyMissing"
        }
        _ = try await LedgerReset.reset(ledgerAt: directory, keeping: .standard, on: try Self.resetOn(), recordedAt: Self.resetAt, encryption: encryption)
        #expect(throws: InterchangeError.self) { try LedgerHistory.load(at: directory) }
        #expect(try LedgerHistory.load(at: directory, encryption: encryption).state.transactions.allEntries.isEmpty)
        #expect(try LedgerAudit.audit(at: directory, encryption: encryption).isClean)
    }

    @Test("US-704: a reset of a ledger open for writing is refused and changes nothing")
    func resetOfAnOpenLedgerIsRefused() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        await #expect { try await LedgerReset.reset(ledgerAt: directory, keeping: .standard, on: try Self.resetOn(), recordedAt: Self.resetAt) } throws: { error in
            (error as? InterchangeError)?.code == "replaceRefused"
        }
        try await ledger.close()
        #expect(try LedgerHistory.load(at: directory).lastSequenceNumber == history.lastSequenceNumber)
        #expect(!FileManager.default.fileExists(atPath: LedgerDirectory(directory).restoring.string))
        #expect(!FileManager.default.fileExists(atPath: LedgerDirectory(directory).replaced(number: 1).string))
    }

    @Test("US-008, P5, G7: Bob's export imports into a new ledger where he is the admin; his own wallets' balances match the export; nothing of Alice's comes along")
    func leavingWithOnesData() async throws {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        let export = try PersonalDataImport.decode(try PersonalDataExport.make(for: PersonalDataExportTests.bob, from: history).encoded())
        let parent = try BackupKeyTests.scratch()
        let target = parent.appending("bob")
        let household = HouseholdID(UUIDValue(high: 0xB0B, low: 1))
        let report = try await PersonalDataImport.importing(export, into: target, householdID: household, recordedAt: Self.resetAt)
        let imported = try LedgerHistory.load(at: target)
        #expect(imported.state.household?.admin == PersonalDataExportTests.bob)
        #expect(imported.state.household?.id == household && imported.state.household?.name == "Bob's household")
        #expect(imported.state.people.keys.sorted() == [PersonalDataExportTests.bob], "the new household is Bob's alone")
        let owned = export.wallets.filter { $0.owner == PersonalDataExportTests.bob.description }
        #expect(!owned.isEmpty && report.wallets == owned.map(\.id))
        let again = try PersonalDataExport.make(for: PersonalDataExportTests.bob, from: imported)
        for wallet in owned {
            #expect(again.wallets.first { $0.id == wallet.id }?.balance == wallet.balance, "\(wallet.name): the balance matches the export")
        }
        let carried = export.transactions.filter { !$0.deleted && owned.map(\.id).contains($0.wallet) }
        #expect(Set(again.transactions.map(\.id)) == Set(carried.map(\.id)) && report.transactions == carried.count)
        #expect(again.transactions.allSatisfy { $0.shares == nil }, "nothing is split in a household of one")
        #expect(report.openDebts == export.debts.filter { $0.owes.minorUnits != 0 })
        #expect(try LedgerAudit.audit(at: target).isClean)
        let text = String(decoding: try again.encoded(), as: UTF8.self)
        for name in ["Alice savings", "Alice EUR card", "Joint account"] { #expect(!text.contains(name)) }
    }

    @Test("US-008: an export without a name (forgotten) needs adminName; a target that is not empty and a damaged export are typed errors; nothing is created")
    func importRefusals() async throws {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        var export = try PersonalDataExport.make(for: PersonalDataExportTests.bob, from: history)
        let parent = try BackupKeyTests.scratch()
        let household = HouseholdID(UUIDValue(high: 0xB0B, low: 2))
        var nameless = export
        nameless.person.name = nil
        await #expect { try await PersonalDataImport.importing(nameless, into: parent.appending("a"), householdID: household, recordedAt: Self.resetAt) } throws: { error in
            (error as? InterchangeError)?.code == "personalDataNameMissing" && "\(error)".contains("--admin-name")
        }
        #expect { try PersonalDataImport.decode(Data("{}".utf8)) } throws: { error in (error as? InterchangeError)?.code == "personalDataInvalid" }
        export.wallets = export.wallets.map { wallet in
            var changed = wallet
            changed.kind = "spaceship"
            return changed
        }
        await #expect { try await PersonalDataImport.importing(export, into: parent.appending("a"), householdID: household, recordedAt: Self.resetAt) } throws: { error in
            (error as? InterchangeError)?.code == "personalDataInvalid" && "\(error)".contains("spaceship")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.string) == [])
        _ = try await PersonalDataImport.importing(nameless, into: parent.appending("a"), householdID: household, adminName: "Robert", recordedAt: Self.resetAt)
        #expect(try LedgerHistory.load(at: parent.appending("a")).state.people[PersonalDataExportTests.bob]?.name.text == "Robert")
        await #expect { try await PersonalDataImport.importing(nameless, into: parent.appending("a"), householdID: household, adminName: "Robert", recordedAt: Self.resetAt) } throws: { error in
            (error as? InterchangeError)?.code == "restoreTargetNotEmpty"
        }
    }
}
