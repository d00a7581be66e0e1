import TallyModel

/// The household as validation sees it (H1, H2, H5).
public struct HouseholdRecord: Sendable, Equatable {
    /// The household's id.
    public var id: HouseholdID
    /// Its name.
    public var name: String
    /// The base currency (H2).
    public var baseCurrency: Currency
    /// The admin (H5).
    public var admin: PersonID
}

/// A member or contact (H3).
public struct PersonRecord: Sendable, Equatable {
    /// The display name (personal text of the person, P1).
    public var name: PersonalText
    /// Whether the person is (or was) a household member rather than a contact.
    public var isMember: Bool
    /// Whether the member was removed (H4).
    public var isRemoved = false
    /// Whether the person was archived (H3).
    public var isArchived = false
    /// The sequence number of the person's `PersonForgotten` event: their key is destroyed,
    /// their texts redacted (P3); `nil` while they are not forgotten.
    public var forgottenAt: UInt64?
    /// Whether the person was forgotten (P3).
    public var isForgotten: Bool { forgottenAt != nil }
}

/// A wallet (W1-W5).
public struct WalletRecord: Sendable, Equatable {
    /// Its name (W2).
    public var name: String
    /// Its kind (W4).
    public var kind: WalletKind
    /// Its currency.
    public var currency: Currency
    /// Whether it counts in totals (W4).
    public var isActive = true
    /// Whether it was closed for good (W4).
    public var isClosed = false
    /// The tracked balance in minor units (W3): opening +/- live transactions and transfers; for
    /// a liability (card, loan) what is owed, so its movements count negated (W1), as in the
    /// wallet read model.
    public var balanceMinorUnits: Int64
    /// The latest balance point, which is the value of observed wallets (W5).
    public var lastBalancePoint: BalanceRecorded?
    /// Live transactions and transfers touching it (W4).
    public var liveEntryCount = 0
    /// Live transactions (not transfers) booked on it: a wallet closes only without any (W4);
    /// the transfers that paid it off stay as history.
    public var liveTransactionCount = 0

    /// +1 for assets, -1 for liabilities (an expense on a card raises what is owed).
    var movementSign: Int64 { kind.isLiability ? -1 : 1 }

    /// The balance the close check uses: the last balance point for observed kinds (W5),
    /// the tracked balance otherwise.
    public var closingBalanceMinorUnits: Int64 {
        if kind.isValueObserved, let point = lastBalancePoint { return point.balance.minorUnits }
        return balanceMinorUnits
    }
}

/// A category (C1-C3).
public struct CategoryRecord: Sendable, Equatable {
    /// Its name (C2).
    public var name: String
    /// Income or expense.
    public var group: CategoryGroup
    /// Whether shared transactions may use it.
    public var shareable: Bool
    /// Whether it is a preset (C2).
    public var isPreset: Bool
    /// Whether it is usable for new entries (C3).
    public var isActive = true
    /// Whether it was deleted (C3).
    public var isDeleted = false
    /// Transactions (live or deleted) and templates in it (C3).
    public var entryCount = 0
}

/// A transaction (T1-T3).
public struct TransactionRecord: Sendable, Equatable {
    /// Its current fields.
    public var details: TransactionDetails
    /// Whether it is soft-deleted (T3).
    public var isDeleted = false
    /// The settlement covering it, if any (T2).
    public var settledBy: SettlementID?
    /// Whether it was confirmed as a bonus (B7).
    public var isBonusConfirmed = false
}

/// A transfer (W6).
public struct TransferRecord: Sendable, Equatable {
    /// The event that recorded it.
    public var transfer: TransferRecorded
    /// Whether it is deleted.
    public var isDeleted = false
}

/// A recurring template (T4).
public struct TemplateRecord: Sendable, Equatable {
    /// How often it occurs.
    public var frequency: RecurrenceFrequency
    /// Its transaction fields; `details.date` is the anchor.
    public var details: TransactionDetails
    /// Whether it is paused.
    public var isPaused = false
}

/// A group (S7).
public struct GroupRecord: Sendable, Equatable {
    /// Its name.
    public var name: String
    /// Its members.
    public var members: [PersonID]
}

/// A budget allocation's key: a category and the first period it applies to (B2).
public struct BudgetKey: Sendable, Hashable {
    /// The category.
    public var categoryID: CategoryID
    /// The first period's start.
    public var fromPeriod: LocalDate
}
