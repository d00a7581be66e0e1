import Foundation
import Tally
import TallyModel
import TallyProjections

/// Everything one person can see in a household, as JSON (seed 000 TECH-009, P5 in
/// `Docs/Security.md`): their own record and entries, the shared entries they take part in,
/// the household's wallets except those owned by someone else, groups they belong to, their
/// settlements and debts, categories and budgets.
///
/// Never included (G7): another person's personal (non-shared) transactions, wallets owned by
/// another member, groups the person is not in; other people appear by id only, never by name.
/// Redacted texts (of forgotten people) are `null` with `noteRedacted: true`.
public struct PersonalDataExport: Codable, Sendable, Equatable {
    public static let currentFormatVersion = 1

    public struct Amount: Codable, Sendable, Equatable {
        public var minorUnits: Int64
        public var currency: String
        init(_ money: Money) {
            minorUnits = money.minorUnits
            currency = money.currency.code
        }
    }

    public struct Person: Codable, Sendable, Equatable {
        public var id: String
        public var name: String?
        public var role: String
        public var removed: Bool
        public var archived: Bool
        public var forgotten: Bool
        /// The e-mail address, when one was set and can be read (`PersonUpdated`, P1).
        public var email: String?
        /// The phone number, when one was set and can be read (`PersonUpdated`, P1).
        public var phone: String?
    }

    public struct Household: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var baseCurrency: String
        /// The other members and contacts, by id only (TECH-009).
        public var otherPeople: [String]
        /// The wallets owned by other members that the exported transactions name, by id only
        /// (G7: their names and balances stay out), sorted, so every wallet an entry names
        /// resolves inside the export. Absent from exports made before issue 29.
        public var otherWallets: [String]?
    }

    public struct Wallet: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var kind: String
        public var owner: String?
        public var balance: Amount
        public var active: Bool
        /// `tracked` or `observed` (W5); absent in exports made before it was written: the
        /// kind's default.
        public var valuation: String?
    }

    public struct Category: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var group: String
    }

    public struct Share: Codable, Sendable, Equatable {
        public var person: String
        public var amount: Amount
    }

    public struct Transaction: Codable, Sendable, Equatable {
        public var id: String
        public var date: String
        public var kind: String
        public var amount: Amount
        public var wallet: String
        public var category: String
        public var note: String?
        public var noteRedacted: Bool?
        /// The title and subtitle (Swiff 1.1.2), personal texts as `note`; absent when none.
        public var payee: String?
        public var payeeRedacted: Bool?
        public var subtitle: String?
        public var subtitleRedacted: Bool?
        public var tags: [String]
        public var payer: String
        /// The resolved shares of a shared transaction; `nil` for a personal one.
        public var shares: [Share]?
        public var deleted: Bool
        public var settledBy: String?
    }

    public struct Transfer: Codable, Sendable, Equatable {
        public var id: String
        public var date: String
        public var from: String
        public var to: String
        public var sent: Amount
        public var received: Amount
        public var note: String?
        public var noteRedacted: Bool?
        public var deleted: Bool
    }

    public struct GroupExpense: Codable, Sendable, Equatable {
        public var id: String
        public var date: String
        public var paidBy: String
        public var amount: Amount
        public var note: String?
        public var noteRedacted: Bool?
        public var owed: [Share]
        /// Its title, if any (absent from the JSON when none).
        public var title: String?
        public var titleRedacted: Bool?
    }

    public struct Group: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var members: [String]
        public var expenses: [GroupExpense]
    }

    public struct Settlement: Codable, Sendable, Equatable {
        public var id: String
        public var date: String
        public var from: String
        public var to: String
        public var amount: Amount
    }

    public struct Debt: Codable, Sendable, Equatable {
        /// The other person (by id).
        public var other: String
        /// What the exported person owes them (negative: what they owe the exported person).
        public var owes: Amount
    }

    public struct Budget: Codable, Sendable, Equatable {
        public var category: String
        public var fromPeriod: String
        /// The allocation; absent for a removal (`BudgetRemoved`: not budgeted from then on).
        public var amount: Amount?
    }

    public var format = "tally.personalData"
    public var formatVersion = currentFormatVersion
    /// The last sequence number the export covers.
    public var throughSequenceNumber: UInt64
    public var person: Person
    public var household: Household?
    public var wallets: [Wallet]
    public var categories: [Category]
    public var transactions: [Transaction]
    public var transfers: [Transfer]
    public var groups: [Group]
    public var settlements: [Settlement]
    public var debts: [Debt]
    public var budgets: [Budget]

    /// The export of `personID`'s data from `history`.
    /// - Throws: `InterchangeError` `unknownPerson` when the household does not know the id.
    public static func make(for personID: PersonID, from history: LedgerHistory) throws(InterchangeError) -> PersonalDataExport {
        let state = history.state
        guard let record = state.people[personID] else {
            throw InterchangeError(code: "unknownPerson", message: "person \(personID) is not known to this household; list people with `tally log --json`")
        }
        let visibleWallets: [WalletBalance]
        do {
            visibleWallets = try history.readModels.wallets.balances(visibleTo: .member(personID))
        } catch {
            throw InterchangeError(code: error.code, message: error.message)
        }
        let walletIDs = Set(visibleWallets.map(\.walletID))
        var groupExpenses: [GroupID: [GroupExpense]] = [:]
        var expenses: [GroupExpenseID: GroupExpenseRecorded] = [:]
        var expenseOrder: [GroupExpenseID] = []
        var deletedExpenses: Set<GroupExpenseID> = []
        var settlements: [Settlement] = []
        var events = try history.eventCursor()
        while let committed = try events.next() {
            switch committed.event.payload {
            case .groupExpenseRecorded(let expense):
                expenseOrder.append(expense.expenseID)
                expenses[expense.expenseID] = expense
            case .groupExpenseEdited(let edited) where expenses[edited.expense.expenseID] != nil:
                expenses[edited.expense.expenseID] = edited.expense
            case .groupExpenseDeleted(let deleted):
                deletedExpenses.insert(deleted.expenseID)
            case .groupExpenseRestored(let restored):
                deletedExpenses.remove(restored.expenseID)
            case .settlementRecorded(let settlement) where settlement.from == personID || settlement.to == personID:
                settlements.append(Settlement(
                    id: settlement.settlementID.description, date: settlement.date.isoString, from: settlement.from.description,
                    to: settlement.to.description, amount: Amount(settlement.amount)))
            default:
                break
            }
        }
        for id in expenseOrder where !deletedExpenses.contains(id) {
            guard let expense = expenses[id] else { continue }
            groupExpenses[expense.groupID, default: []].append(GroupExpense(
                id: expense.expenseID.description, date: expense.date.isoString, paidBy: expense.paidBy.description,
                amount: Amount(expense.amount), note: expense.note?.text, noteRedacted: redactedFlag(expense.note),
                owed: expense.owed.map { Share(person: $0.person.description, amount: Amount($0.amount)) },
                title: expense.title?.text, titleRedacted: redactedFlag(expense.title)))
        }
        let transactions = state.transactions.allEntries.filter { Viewer.member(personID).sees($0.value.details) }
            .sorted { ($0.value.details.date, $0.key) < ($1.value.details.date, $1.key) }
            .map { id, transaction in Self.transaction(id, transaction, state: state) }
        let otherWallets = Set(transactions.map(\.wallet)).subtracting(walletIDs.map(\.description)).sorted()
        return PersonalDataExport(
            throughSequenceNumber: history.lastSequenceNumber,
            person: Person(
                id: personID.description, name: record.name.text,
                role: state.household?.admin == personID ? "admin" : (record.isMember ? "member" : "contact"),
                removed: record.isRemoved, archived: record.isArchived, forgotten: record.isForgotten,
                email: record.email?.text, phone: record.phone?.text),
            household: state.household.map { household in
                Household(id: household.id.description, name: household.name, baseCurrency: household.baseCurrency.code,
                          otherPeople: state.people.keys.filter { $0 != personID }.map(\.description).sorted(),
                          otherWallets: otherWallets)
            },
            wallets: visibleWallets.map { wallet in
                Wallet(id: wallet.walletID.description, name: wallet.name, kind: String(describing: wallet.kind),
                       owner: wallet.owner?.description, balance: Amount(wallet.balance), active: wallet.countsInTotals,
                       valuation: String(describing: wallet.valuation))
            },
            categories: state.categories.filter { !$0.value.isDeleted }.sorted { $0.key < $1.key }.map { id, category in
                Category(id: id.description, name: category.name, group: String(describing: category.group))
            },
            transactions: transactions,
            transfers: state.transfers.allEntries.filter { walletIDs.contains($0.value.transfer.fromWalletID) && walletIDs.contains($0.value.transfer.toWalletID) }
                .sorted { ($0.value.transfer.date, $0.key) < ($1.value.transfer.date, $1.key) }
                .map { id, record in
                    Transfer(id: id.description, date: record.transfer.date.isoString, from: record.transfer.fromWalletID.description,
                             to: record.transfer.toWalletID.description, sent: Amount(record.transfer.amountSent),
                             received: Amount(record.transfer.amountReceived), note: record.transfer.note?.text,
                             noteRedacted: redactedFlag(record.transfer.note), deleted: record.isDeleted)
                },
            groups: state.groups.filter { $0.value.members.contains(personID) }.sorted { $0.key < $1.key }.map { id, group in
                Group(id: id.description, name: group.name, members: group.members.map(\.description),
                      expenses: groupExpenses[id] ?? [])
            },
            settlements: settlements,
            debts: try debts(of: personID, in: history.readModels.debts),
            budgets: history.readModels.budgets.allocationEntries.sorted { ($0.fromPeriod, $0.categoryID) < ($1.fromPeriod, $1.categoryID) }.map { entry in
                Budget(category: entry.categoryID.description, fromPeriod: entry.fromPeriod.isoString, amount: entry.amount.map { Amount($0) })
            })
    }

    static func transaction(_ id: TransactionID, _ record: TallyProjections.TransactionRecord, state: LedgerState) -> Transaction {
        let details = record.details
        return Transaction(
            id: id.description, date: details.date.isoString, kind: String(describing: details.kind), amount: Amount(details.amount),
            wallet: details.walletID.description, category: details.categoryID.description, note: details.note?.text,
            noteRedacted: redactedFlag(details.note), payee: record.payee?.text, payeeRedacted: redactedFlag(record.payee),
            subtitle: record.subtitle?.text, subtitleRedacted: redactedFlag(record.subtitle), tags: details.tags, payer: details.payer.description,
            shares: details.split?.shares.map { Share(person: $0.person.description, amount: Amount($0.amount)) },
            deleted: record.isDeleted, settledBy: state.debts.settlement(coveringTransaction: id)?.description)
    }

    /// `true` for a text the export cannot hold: redacted (P3) or sealed (its key missing, P2).
    static func redactedFlag(_ text: PersonalText?) -> Bool? {
        text.map { $0.text == nil } == true ? true : nil
    }

    static func debts(of person: PersonID, in debts: DebtProjection) throws(InterchangeError) -> [Debt] {
        let balances: [PairBalance]
        do {
            balances = try debts.householdBalances()
        } catch {
            throw InterchangeError(code: error.code, message: error.message)
        }
        return balances.compactMap { pair in
            if pair.personA == person { return Debt(other: pair.personB.description, owes: Amount(pair.aOwesB)) }
            if pair.personB == person {
                return Debt(other: pair.personA.description, owes: Amount(Money(minorUnits: 0 - pair.aOwesB.minorUnits, currency: pair.aOwesB.currency)))
            }
            return nil
        }
    }

    /// The document as pretty, key-sorted JSON.
    public func encoded() throws(InterchangeError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(self) } catch { throw InterchangeError(code: "exportUnwritable", message: "\(error)") }
    }
}
