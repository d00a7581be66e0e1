import TallyModel
import TallyProjections

extension CSVExporter {
    /// The columns of ``settlements(_:from:through:visibleTo:numberFormat:)``, in order.
    public static let settlementHeader = ["date", "from", "to", "amount", "currency", "group", "advance", "id", "paymentMethod", "note"]

    /// The CSV text of the recorded settlements (S6, Flow US-040 "settlement history and
    /// export") dated from `from` through `through` (inclusive; nil: unbounded), oldest first
    /// (date, then the order they were recorded): the debt read model's `settlementHistory()`.
    /// A member `viewer` gets the settlements they paid or received (G7, the debts' rule
    /// `Viewer.sees(anyOf:)`), never one between two other people. `group` is the group's name,
    /// empty for a household settlement; `advance` is `yes` for one recorded as an advance.
    ///
    /// - Throws: `InterchangeError` `exportRangeInvalid` when `from` is after `through`.
    public static func settlements(
        _ history: LedgerHistory, from: LocalDate? = nil, through: LocalDate? = nil, visibleTo viewer: Viewer,
        numberFormat: NumberFormat = .plain
    ) throws(InterchangeError) -> String {
        try checkRange(from: from, through: through)
        let debts = history.readModels.debts
        let rows = debts.settlementHistory().filter { settlement in
            viewer.sees(anyOf: settlement.from, settlement.to)
                && from.map { settlement.date >= $0 } ?? true && through.map { settlement.date <= $0 } ?? true
        }.map { settlement in
            [
                settlement.date.isoString, history.personName(settlement.from), history.personName(settlement.to),
                numberFormat.text(settlement.amount), settlement.amount.currency.code,
                settlement.groupID.map { debts.group($0)?.name ?? $0.description } ?? "", settlement.isAdvance ? "yes" : "no",
                settlement.settlementID.description, settlement.paymentMethod ?? "", settlement.note ?? "",
            ]
        }
        return text(header: settlementHeader, rows: rows)
    }

    /// - Throws: `InterchangeError` `exportRangeInvalid` when `from` is after `through`.
    static func checkRange(from: LocalDate?, through: LocalDate?) throws(InterchangeError) {
        if let from, let through, from > through {
            throw InterchangeError(code: "exportRangeInvalid", message: "--from \(from.isoString) is after --to \(through.isoString); swap them")
        }
    }
}
