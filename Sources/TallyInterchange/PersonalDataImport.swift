import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel

/// Leaving a household with one's data (Flow US-008, Docs/Editing.md "Owning one's data"): a
/// new ledger built from a person's ``PersonalDataExport``, whose household they are the admin
/// of (same person id).
///
/// Carried, as the export shows them (G7: the export holds nothing of others' personal data):
/// - the wallets the person owns, each with the balance the export gives; the household's
///   shared wallets stay with the household;
/// - every category (presets map to the new household's presets, custom ones keep their ids,
///   renamed presets their names);
/// - the live transactions in those wallets, personal ones as they are and shared ones as the
///   person's own entry for the whole amount that moved in their wallet (the other people are
///   not in the new household, so nothing is split);
/// - the live transfers between two of those wallets.
///
/// A wallet is opened on the date of its earliest carried entry (or the import's date) with
/// the opening balance that makes its balance equal the exported one after the carried entries.
///
/// Not carried: the household's shared wallets and their entries (and entries in other
/// members' wallets, which the export names by id only), groups and group expenses,
/// settlements, budgets. Every reference the import reads must resolve inside the export
/// (`requireResolvedReferences`): nothing is left behind silently. Debts (S5) are reported,
/// not carried: US-008 says unsettled debts must be resolved or acknowledged in the household
/// being left.
public enum PersonalDataImport {
    /// What the import carried and left.
    public struct Report: Sendable, Equatable {
        /// How many commands built the new ledger.
        public var commandCount = 0
        /// The wallets carried, by id.
        public var wallets: [String] = []
        /// Transactions carried.
        public var transactions = 0
        /// Transfers carried.
        public var transfers = 0
        /// Live transactions of the export left behind (in wallets the person does not own).
        public var transactionsLeft = 0
        /// Debts with other people in the household left (not zero), to settle there.
        public var openDebts: [PersonalDataExport.Debt] = []
    }

    /// The commands that build the export's data into a new ledger with household
    /// `householdID`, recorded at `recordedAt` by the person. Command ids derive from the
    /// household id (G5).
    ///
    /// - Parameters:
    ///   - householdName: the new household's name; default "<name>'s household".
    ///   - adminName: the person's name when the export has none (a forgotten person's).
    /// - Throws: `personalDataInvalid` naming the field (an unknown format, a kind, currency,
    ///   date or id that does not parse), `personalDataReferenceUnknown` naming the entry
    ///   whose wallet, category or person the export does not hold (nothing is left out
    ///   silently), `personalDataNameMissing`.
    public static func commands(
        from export: PersonalDataExport, householdID: HouseholdID, householdName: String? = nil, adminName: String? = nil,
        recordedAt: Timestamp
    ) throws(InterchangeError) -> (commands: [Command], report: Report) {
        guard export.format == "tally.personalData", export.formatVersion == PersonalDataExport.currentFormatVersion else {
            throw invalid("format \(export.format) version \(export.formatVersion); this build imports tally.personalData version \(PersonalDataExport.currentFormatVersion)")
        }
        guard let oldHousehold = export.household else { throw invalid("the export has no household") }
        try requireResolvedReferences(in: export)
        guard let name = adminName ?? export.person.name, !name.isEmpty else {
            throw InterchangeError(code: "personalDataNameMissing", message: "the export holds no name for \(export.person.id) (the person was forgotten); give the name to use (--admin-name NAME)")
        }
        let person: PersonID = try parse(export.person.id, "person.id")
        let oldHouseholdID: HouseholdID = try parse(oldHousehold.id, "household.id")
        let currency = try parseCurrency(oldHousehold.baseCurrency, "household.baseCurrency")
        let today: LocalDate
        do { today = try recordedAt.utcDate() } catch { throw invalid("recordedAt \(recordedAt): \(error)") }
        var commands: [Command] = []
        func add(_ action: CommandAction) {
            let id = CommandID.derived(namespace: householdID.value, name: "import person \(commands.count)")
            commands.append(Command(commandID: id, actor: person, recordedAt: recordedAt, action: action))
        }
        var report = Report()
        add(.createHousehold(householdID: householdID, name: householdName ?? "\(name)'s household", baseCurrency: currency, adminName: name))

        // Categories: presets by their new ids, renamed as exported; custom ones with their ids.
        var presetIDs: [CategoryID: CategoryID] = [:]
        for preset in CategoryPresets.all { presetIDs[preset.categoryID(in: oldHouseholdID)] = preset.categoryID(in: householdID) }
        var categoryIDs: [String: CategoryID] = [:]
        for category in export.categories {
            let id: CategoryID = try parse(category.id, "categories.id")
            if let newID = presetIDs[id] {
                categoryIDs[category.id] = newID
                if let preset = CategoryPresets.all.first(where: { $0.categoryID(in: householdID) == newID }), preset.name != category.name {
                    add(.renameCategory(categoryID: newID, name: category.name))
                }
            }
        }
        var entities = EntityCommands()
        for category in export.categories where categoryIDs[category.id] == nil {
            let id: CategoryID = try parse(category.id, "categories.id")
            guard let group = CategoryGroup.allCases.first(where: { String(describing: $0) == category.group }) else {
                throw invalid("category \(category.id): group \(category.group) is not income or expense")
            }
            entities.addCategory(id, name: category.name, group: group)
            categoryIDs[category.id] = id
        }

        // The person's own wallets, and the entries that moved money in them.
        let owned = export.wallets.filter { $0.owner == export.person.id }
        let ownedIDs = Set(owned.map(\.id))
        let transactions = export.transactions.filter { !$0.deleted }
        let carried = transactions.filter { ownedIDs.contains($0.wallet) }
        report.transactionsLeft = transactions.count - carried.count
        let transfers = export.transfers.filter { !$0.deleted && ownedIDs.contains($0.from) && ownedIDs.contains($0.to) }
        var movement: [String: Int128] = [:]
        var earliest: [String: LocalDate] = [:]
        func moved(_ wallet: String, _ minorUnits: Int128, on date: LocalDate) {
            movement[wallet, default: 0] += minorUnits
            earliest[wallet] = min(earliest[wallet] ?? date, date)
        }
        for transaction in carried {
            let date = try parseDate(transaction.date, "transactions.date")
            guard let kind = TransactionKind.allCases.first(where: { String(describing: $0) == transaction.kind }) else {
                throw invalid("transaction \(transaction.id): kind \(transaction.kind) is not income or expense")
            }
            guard let category = categoryIDs[transaction.category] else {
                throw invalid("transaction \(transaction.id): category \(transaction.category) is not among the export's categories")
            }
            let amount = try money(transaction.amount, "transactions.amount")
            moved(transaction.wallet, kind == .income ? Int128(amount.minorUnits) : -Int128(amount.minorUnits), on: date)
            entities.addTransaction(try parse(transaction.id, "transactions.id"), details: TransactionDetails(
                kind: kind, amount: amount, walletID: try parse(transaction.wallet, "transactions.wallet"), categoryID: category,
                date: date, note: transaction.note.map { PersonalText($0, owner: person) }, tags: transaction.tags, payer: person, split: nil),
                payee: transaction.payee.map { PersonalText($0, owner: person) }, subtitle: transaction.subtitle.map { PersonalText($0, owner: person) })
            report.transactions += 1
        }
        for transfer in transfers {
            let date = try parseDate(transfer.date, "transfers.date")
            let sent = try money(transfer.sent, "transfers.sent")
            let received = try money(transfer.received, "transfers.received")
            moved(transfer.from, -Int128(sent.minorUnits), on: date)
            moved(transfer.to, Int128(received.minorUnits), on: date)
            entities.addTransfer(TransferRecorded(
                transferID: try parse(transfer.id, "transfers.id"), fromWalletID: try parse(transfer.from, "transfers.from"),
                toWalletID: try parse(transfer.to, "transfers.to"), amountSent: sent, amountReceived: received, date: date,
                note: transfer.note.map { PersonalText($0, owner: person) }))
            report.transfers += 1
        }
        for wallet in owned {
            guard let kind = WalletKind.allCases.first(where: { String(describing: $0) == wallet.kind }) else {
                throw invalid("wallet \(wallet.id): kind \(wallet.kind) is unknown")
            }
            let balance = try money(wallet.balance, "wallets.balance")
            // The balance is in the wallet's own sign (owed, for a liability): movements count
            // with the kind's sign.
            guard let opening = Int64(exactly: Int128(balance.minorUnits) - (movement[wallet.id] ?? 0) * Int128(kind.movementSign)) else {
                throw invalid("wallet \(wallet.id): the opening balance is out of range")
            }
            let valuation = try wallet.valuation.map { text throws(InterchangeError) -> WalletValuation in
                guard let value = WalletValuation.allCases.first(where: { String(describing: $0) == text }) else {
                    throw invalid("wallet \(wallet.id): valuation \(text) is neither tracked nor observed")
                }
                return value
            }
            entities.addWallet(
                try parse(wallet.id, "wallets.id"), name: wallet.name, kind: kind,
                openingBalance: Money(minorUnits: opening, currency: balance.currency), openedOn: earliest[wallet.id] ?? today,
                owner: person, valuation: valuation ?? kind.defaultValuation, isActive: wallet.active)
            report.wallets.append(wallet.id)
        }
        for step in entities.ordered { add(step.action) }
        report.openDebts = export.debts.filter { $0.owes.minorUnits != 0 }
        report.commandCount = commands.count
        return (commands, report)
    }

    /// Creates the ledger at `directory` (absent or empty) from `export`, as
    /// ``commands(from:householdID:householdName:adminName:recordedAt:)`` says, in one batch
    /// (all or nothing), encrypted at rest with `encryption` when given.
    ///
    /// - Throws: `restoreTargetNotEmpty` (a ledger or other files are there), the codes of
    ///   ``commands(from:householdID:householdName:adminName:recordedAt:)``, a rule code when
    ///   an entry is refused (nothing is created), a journal code when writing fails.
    public static func importing(
        _ export: PersonalDataExport, into directory: FilePath, householdID: HouseholdID, householdName: String? = nil,
        adminName: String? = nil, recordedAt: Timestamp, encryption: JournalEncryption? = nil
    ) async throws(InterchangeError) -> Report {
        // A file, a symbolic link or a folder with anything in it is refused (lstat: a link is
        // not followed), so that a failed import removes only what it wrote. A restore or
        // reset a crash interrupted there is settled first: nothing is created over it.
        do throws(LedgerError) {
            _ = try Ledger.recoverInterruptedSwap(at: directory)
            try Ledger.requireEmptyTarget(LedgerDirectory(directory))
        } catch {
            throw InterchangeError(code: error.code, message: "\(error.message); import a person's data into a new ledger folder")
        }
        let existed = FileManager.default.fileExists(atPath: directory.string)
        let (commands, report) = try Self.commands(
            from: export, householdID: householdID, householdName: householdName, adminName: adminName, recordedAt: recordedAt)
        do throws(LedgerError) {
            try await Ledger.create(at: directory, encryption: encryption, executing: commands)
        } catch {
            if existed {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.string)) ?? [] {
                    try? FileManager.default.removeItem(atPath: directory.appending(name).string)
                }
            } else {
                try? FileManager.default.removeItem(atPath: directory.string)
            }
            throw InterchangeError(code: error.code, message: "\(error.message); nothing was imported")
        }
        return report
    }

    /// The export, read from its JSON.
    /// - Throws: `personalDataInvalid` when the bytes are not a personal data export.
    public static func decode(_ data: Data) throws(InterchangeError) -> PersonalDataExport {
        do { return try JSONDecoder().decode(PersonalDataExport.self, from: data) } catch {
            throw invalid("not a tally.personalData export: \(error)")
        }
    }

    private static func invalid(_ message: String) -> InterchangeError {
        InterchangeError(code: "personalDataInvalid", message: message)
    }

    private static func parse<Kind>(_ text: String, _ field: String) throws(InterchangeError) -> Identifier<Kind> {
        do { return try Identifier<Kind>(parsing: text) } catch { throw invalid("\(field) \(text) is not an id") }
    }

    private static func parseDate(_ text: String, _ field: String) throws(InterchangeError) -> LocalDate {
        do { return try LocalDate(iso: text) } catch { throw invalid("\(field) \(text) is not a date YYYY-MM-DD") }
    }

    private static func parseCurrency(_ code: String, _ field: String) throws(InterchangeError) -> Currency {
        do { return try Currency(code) } catch { throw invalid("\(field) \(code) is not a currency") }
    }

    private static func money(_ amount: PersonalDataExport.Amount, _ field: String) throws(InterchangeError) -> Money {
        Money(minorUnits: amount.minorUnits, currency: try parseCurrency(amount.currency, field))
    }
}
