import TallyModel
import TallyProjections

extension CSVExporter {
    /// The columns of ``wallets(_:asOf:visibleTo:numberFormat:)``, in order.
    public static let walletHeader = ["id", "name", "kind", "valuation", "owner", "currency", "balance", "as_of", "state"]

    /// The CSV text of the wallets `viewer` sees (Drishti E14-S1, G7), by name then id: the
    /// wallet read model's `balances(asOf:visibleTo:)`, so a member gets the household's wallets
    /// and their own, never another member's own wallet.
    ///
    /// `balance` is the value at the end of `date` (after every recorded movement when nil), in
    /// the wallet's currency; for a card or loan the amount owed (positive when owed). `as_of`
    /// is the last day on or before `date` that changed that value: the latest balance point or
    /// live entry of an observed wallet (W5), the latest live entry of a tracked one, else the
    /// opening day. `state` is `active`, `inactive` (W4, out of totals) or `closed`. Wallets
    /// opened after `date` are left out.
    ///
    /// - Throws: `InterchangeError` `overflow` when a balance does not fit (G1).
    public static func wallets(
        _ history: LedgerHistory, asOf date: LocalDate? = nil, visibleTo viewer: Viewer, numberFormat: NumberFormat = .plain
    ) throws(InterchangeError) -> String {
        let models = history.readModels.wallets
        let balances: [WalletBalance]
        do { balances = try models.balances(asOf: date, visibleTo: viewer) } catch { throw overflow(error) }
        let rows = balances.map { wallet in
            [
                wallet.walletID.description, wallet.name, String(describing: wallet.kind), String(describing: wallet.valuation),
                wallet.owner.map(history.personName) ?? "", wallet.balance.currency.code, numberFormat.text(wallet.balance),
                models.valueChangedLast(of: wallet.walletID, onOrBefore: date)?.isoString ?? "",
                wallet.closedOn != nil ? "closed" : (wallet.isActive ? "active" : "inactive"),
            ]
        }
        return text(header: walletHeader, rows: rows)
    }

    /// A read model's error (an overflow, G1) as an export error with its code.
    static func overflow(_ error: ProjectionError) -> InterchangeError {
        InterchangeError(code: error.code, message: error.message)
    }
}
