import TallyModel
import TallyProjections

extension CSVExporter {
    /// The fixed columns of ``groupReport(_:group:visibleTo:numberFormat:)``; one
    /// `share:<name>` column per member follows.
    public static let groupReportHeader = ["date", "description", "paid_by", "amount", "currency", "settled"]

    /// The CSV text of one group's report (Swiff 1.3.2, S7): its live expenses, oldest first
    /// (date, then the order recorded), each with every member's resolved share (G4), then its
    /// member balances. The member columns are `share:<name>`, one per member (and anyone an
    /// expense or settlement of the group names), ordered as the transaction export orders
    /// its share columns. An expense row's `description` is its title, else its note;
    /// `settled` is `yes` when marked settled or every other member's part is covered by a
    /// settlement that lists it (S6; a settlement without a list moves balances only).
    /// After the expenses, per currency: five summary rows with an empty date and `paid_by`,
    /// `description` `paid`, `owed`, `settlements paid`, `settlements received` and `balance`,
    /// each holding the members' figures in their columns (the debt read model's
    /// `groupBalances`; each balance row sums to zero, S8).
    ///
    /// G7: a member gets the report of a group they are in (`Viewer.sees(groupWithMembers:)`);
    /// any other group is `unknownGroup`, as if it did not exist.
    ///
    /// - Parameter group: the group's name (case-insensitive) or id.
    /// - Throws: `InterchangeError` `unknownGroup` naming the value when no group `viewer` sees
    ///   has that name or id (or two have the name: give the id), the read model's code when a
    ///   balance does not fit (G1).
    public static func groupReport(
        _ history: LedgerHistory, group: String, visibleTo viewer: Viewer, numberFormat: NumberFormat = .plain
    ) throws(InterchangeError) -> String {
        let debts = history.readModels.debts
        let visible = debts.groupIDs.compactMap { id in
            debts.group(id).flatMap { viewer.sees(groupWithMembers: $0.members) ? (key: id, value: $0.name) : nil }
        }
        let groupID: GroupID
        do { groupID = try resolve(group, in: visible, code: "unknownGroup", noun: "group") } catch {
            throw InterchangeError(code: error.code, message: error.message + " among the groups \(viewer) sees; list them with `tally export --format csv --entity groups`")
        }
        let expenses = debts.groupExpenses(in: groupID)
        let balances: [Currency: [GroupMemberBalance]]
        do { balances = try debts.groupBalances(groupID) } catch { throw overflow(error) }
        var people = Set(debts.group(groupID)?.members ?? [])
        for expense in expenses { people.formUnion([expense.paidBy] + expense.owed.map(\.person)) }
        for member in balances.values.joined() { people.insert(member.person) }
        let columns = personColumns(people, history: history)
        var rows: [[String]] = []
        for expense in expenses {
            let shares = Dictionary(expense.owed.map { ($0.person, $0.amount) }, uniquingKeysWith: { first, _ in first })
            rows.append([
                expense.date.isoString, (expense.title ?? expense.note)?.description ?? "", history.personName(expense.paidBy),
                numberFormat.text(expense.amount), expense.amount.currency.code, expense.isSettled ? "yes" : "no",
            ] + columns.map { shares[$0.person].map(numberFormat.text) ?? "" })
        }
        // The summary rows, in order, with the member balance figure each one holds (S7).
        let summaries: [(title: String, figure: (GroupMemberBalance) -> Money)] = [
            ("paid", { $0.paid }), ("owed", { $0.owed }), ("settlements paid", { $0.settlementsPaid }),
            ("settlements received", { $0.settlementsReceived }), ("balance", { $0.balance }),
        ]
        for currency in balances.keys.sorted() {
            let byPerson = Dictionary((balances[currency] ?? []).map { ($0.person, $0) }, uniquingKeysWith: { first, _ in first })
            for summary in summaries {
                rows.append(["", summary.title, "", "", currency.code, ""] + columns.map { byPerson[$0.person].map { numberFormat.text(summary.figure($0)) } ?? "" })
            }
        }
        return text(header: groupReportHeader + columns.map(\.title), rows: rows)
    }
}
