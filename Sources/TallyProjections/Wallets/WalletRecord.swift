import TallyModel

/// A wallet as the wallet projection keeps it (W1, W4).
@StateFields
struct WalletRecord: Hashable, Sendable {
    let walletID: WalletID
    var name: String
    var kind: WalletKind
    let currency: Currency
    let openingBalance: Money
    let openedOn: LocalDate
    let owner: PersonID?
    var isActive: Bool
    var closedOn: LocalDate?

    /// Whether the wallet counts in totals: active and not closed (W4, US-012).
    var countsInTotals: Bool { isActive && closedOn == nil }

    /// +1 for assets, -1 for liabilities (``WalletKind/movementSign``).
    var movementSign: Int64 { kind.movementSign }
}

extension WalletRecord: StateCodable {}
