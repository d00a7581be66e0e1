/// The kind of a wallet (W1). Asset kinds count positive in net worth; `card` and `loan` are liabilities.
///
/// The raw values are stored in events: never change or reuse one.
public enum WalletKind: UInt8, CaseIterable, Hashable, Sendable {
    /// Notes and coins.
    case cash = 0
    /// A bank or payment account.
    case bank = 1
    /// A credit card (liability).
    case card = 2
    /// A savings account.
    case savings = 3
    /// Securities or funds; its value is observed with balance points (W5).
    case investment = 4
    /// Real estate or other property; value observed (W5).
    case property = 5
    /// A loan or mortgage (liability).
    case loan = 6
    /// Anything else, counted as an asset.
    case other = 7

    /// Whether the balance is money owed (card, loan): it counts negative in net worth (N1).
    public var isLiability: Bool { self == .card || self == .loan }

    /// How a movement changes the balance (W1, W3): +1 for assets, -1 for liabilities, whose
    /// balance is what is owed: an expense on a card raises it, a payment into it lowers it.
    /// The one sign the engine's close check (W4), the wallet read model and the store use.
    public var movementSign: Int64 { isLiability ? -1 : 1 }
}
