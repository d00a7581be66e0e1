import Tally

/// What a balances screen shows, computed from the read-side store in one observed value
/// (``Tally/Ledger/observe(_:)``): each wallet with its owner's name as the store holds it
/// (redacted once the owner is forgotten, P3), its balance and how many live transactions it
/// has. The example keeps no names of its own: every value is read again from the store.
struct BalanceScreen: Equatable, Sendable {
    struct Row: Equatable, Sendable {
        let wallet: String
        let kind: WalletKind
        /// The owner's display name, or `shared`.
        let owner: String
        let balance: Money
        let liveTransactionCount: Int
    }

    let rows: [Row]

    /// The screen as the store shows it now to `viewer` (G7: the household's wallets and their own).
    init(store: LedgerStore, viewer: Viewer) throws(StoreError) {
        let people = try store.personNames()
        rows = try store.walletBalances(visibleTo: viewer).map { wallet in
            Row(
                wallet: wallet.name, kind: wallet.kind, owner: wallet.owner.map { people[$0] ?? "\($0)" } ?? "shared",
                balance: wallet.balance, liveTransactionCount: wallet.liveTransactionCount)
        }
    }

    /// The screen as text, one line per wallet.
    func lines() -> [String] {
        TextColumns.lines(
            rows.map { [$0.wallet, "\($0.kind)", $0.owner, $0.balance.formatted(), Self.count($0.liveTransactionCount)] },
            rightAligned: [3])
    }

    private static func count(_ transactions: Int) -> String {
        transactions == 1 ? "1 transaction" : "\(transactions) transactions"
    }
}
