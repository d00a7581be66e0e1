import TallyModel

/// A wallet as the wallet projection keeps it (W1, W4).
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

extension WalletRecord: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        walletID.encode(to: &writer)
        name.encode(to: &writer)
        kind.encode(to: &writer)
        currency.encode(to: &writer)
        openingBalance.encode(to: &writer)
        openedOn.encode(to: &writer)
        owner.encode(to: &writer)
        isActive.encode(to: &writer)
        closedOn.encode(to: &writer)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(
            walletID: try reader.read(), name: try reader.read(), kind: try reader.read(),
            currency: try reader.read(), openingBalance: try reader.read(), openedOn: try reader.read(),
            owner: try reader.read(), isActive: try reader.read(), closedOn: try reader.read())
    }
}
