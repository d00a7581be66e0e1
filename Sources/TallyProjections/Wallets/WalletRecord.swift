import TallyModel

/// A wallet (W1, W4): the wallet read model's one book of them, which the engine's validation
/// reads too (its balance, balance points, designations and live entries are the read model's
/// as well: ``WalletProjection``).
@StateFields
package struct WalletRecord: Hashable, Sendable {
    package let walletID: WalletID
    /// Its name (W2).
    package var name: String
    /// Its kind (W4).
    package var kind: WalletKind
    package let currency: Currency
    package let openingBalance: Money
    package let openedOn: LocalDate
    package let owner: PersonID?
    /// Whether it counts in totals (W4); a closed wallet stays as it was.
    package var isActive: Bool
    /// The day it was closed for good (W4).
    package var closedOn: LocalDate?
    /// Its valuation as set (`WalletValuationSet`, W5); `nil` while it was never set: its
    /// kind's default.
    package var valuationSet: WalletValuation? = nil
    /// Its bank connection as last set (Tim Step 2.2: institution, account id there, status);
    /// `nil` while it has none.
    package var connection: WalletConnectionSet? = nil

    /// Tracked or observed (W5): as set, else its kind's default.
    package var valuation: WalletValuation { valuationSet ?? kind.defaultValuation }

    /// Whether its value is set by balance points rather than derived from its movements (W5).
    package var isValueObserved: Bool { valuation == .observed }

    /// Whether it was closed for good (W4).
    package var isClosed: Bool { closedOn != nil }

    /// Whether the wallet counts in totals: active and not closed (W4, US-012).
    var countsInTotals: Bool { isActive && closedOn == nil }

    /// +1 for assets, -1 for liabilities (``WalletKind/movementSign``).
    package var movementSign: Int64 { kind.movementSign }
}

extension WalletRecord: StateCodable {}
