import Tally
import TallyModel
import TallyStore

/// Issue 15 through the host API: `ledger.transactions(_:)` (keyset pages, the cursor printed
/// as `TransactionCursor.description`), `ledger.categoryTotals(byMonth:)` and
/// `ledger.observe { $0.walletBalances(visibleTo: .audit) }`.
extension TallySubject: QuerySubject {
    func page(_ query: ListQuery, after cursor: String?) async throws -> ListPage {
        var request = TransactionQuery(visibleTo: .audit)
        request.walletIDs = query.walletID.map { [$0] } ?? []
        request.categoryIDs = query.categoryID.map { [$0] } ?? []
        request.dates = query.dates
        request.minorUnits = query.minorUnits
        request.text = query.text
        request.limit = ListQuery.pageRows
        if let cursor {
            guard let after = TransactionCursor(cursor) else { throw ScaleError.damaged("not a Tally cursor: \(cursor)") }
            request.after = after
        }
        let page = try await ledger.transactions(request)
        return ListPage(
            rowCount: page.rows.count, digest: ListPage.digest(page.rows.map(\.transaction.amount.minorUnits)),
            next: page.next?.description)
    }

    func categoryMonthReport(_ months: ClosedRange<YearMonth>) async throws -> ReportFigures {
        var request = TransactionQuery(visibleTo: .audit)
        request.dates = months.lowerBound.firstDay...months.upperBound.lastDay
        let cells = try await ledger.categoryTotals(byMonth: request)
        return ReportFigures(cells: cells.count, digest: ListPage.digest(cells.map(\.total.minorUnits)))
    }

    func observeBalances() async throws -> ObservationProbe {
        let balances = await ledger.observe { db in try db.walletBalances(visibleTo: .audit) }
        return ObservationProbe(balances) { balances in balances.reduce(Int64(0)) { $0 + $1.balance.minorUnits } }
    }
}
