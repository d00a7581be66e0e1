import Tally
import TallyModel

/// CSV export of live transactions (seed 001 US-701): `date,type,category,amount,note` first,
/// then `wallet,currency`. Sorted by date, then transaction id. Amounts are positive plain
/// numbers (`1234.50`), the type says income or expense. Fields are quoted when they hold
/// the delimiter, a quote or a line break (RFC 4180).
public enum CSVExporter {
    /// The header line.
    public static let header = ["date", "type", "category", "amount", "note", "wallet", "currency"]

    /// The CSV text of `history`'s live transactions.
    public static func export(_ history: LedgerHistory) -> String {
        let live = history.state.transactions.allEntries.filter { !$0.value.isDeleted }
            .sorted { ($0.value.details.date, $0.key) < ($1.value.details.date, $1.key) }
        var lines = [header.joined(separator: ",")]
        for (_, record) in live {
            let details = record.details
            let fields = [
                details.date.isoString, String(describing: details.kind), history.categoryName(details.categoryID),
                details.amount.plainNumber(), details.note?.description ?? "", history.walletName(details.walletID), details.amount.currency.code,
            ]
            lines.append(fields.map { CSVTable.quoted($0, delimiter: ",") }.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
