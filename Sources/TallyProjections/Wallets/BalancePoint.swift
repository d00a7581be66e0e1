import TallyModel

/// A recorded balance point (W5): the observed value of a property or investment wallet, or an
/// assertion about a transaction-tracked wallet.
@StateFields
public struct BalancePoint: Hashable, Sendable {
    /// The date of the balance (end of that day).
    public let date: LocalDate
    /// The balance in the wallet's currency.
    public let balance: Money
    /// The journal sequence number of the `BalanceRecorded` event (orders points on one date).
    public let sequenceNumber: UInt64

    /// Creates a balance point.
    public init(date: LocalDate, balance: Money, sequenceNumber: UInt64) {
        self.date = date
        self.balance = balance
        self.sequenceNumber = sequenceNumber
    }
}

extension BalancePoint: StateCodable {}
