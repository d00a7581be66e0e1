/// Which transactions a list, a report or a saved view selects (issue 15, Flow US-058, Swiff
/// 2.3.3): every filter narrows; an empty list means "any". The one list of filter fields:
/// `TransactionQuery` (TallyStore) holds one beside its viewer, dates, order and page, and a
/// saved view (``ViewSaved``) stores one.
@WireFields
public struct TransactionFilter: Hashable, Sendable {
    /// Only these wallets.
    public var walletIDs: [WalletID] = []
    /// Only these categories.
    public var categoryIDs: [CategoryID] = []
    /// Only these payers.
    public var payers: [PersonID] = []
    /// Only transactions with one of these people as payer or in the split (S3).
    public var people: [PersonID] = []
    /// Only shared transactions (`true`: with a split, S2) or only personal ones (`false`);
    /// `nil` for both (Flow's shared/personal filter).
    public var shared: Bool?
    /// Only transactions with one of these tags (exactly as entered).
    public var tags: [String] = []
    /// Only these kinds (income, expense).
    public var kinds: [TransactionKind] = []
    /// Only transactions whose note or tags hold every word of this text, each word as the
    /// start of a word (`"cof sh"` finds "Coffee shop"), case and accents ignored. Notes of
    /// forgotten people are not searched (P3).
    public var text: String?
    /// Only amounts (minor units, positive) in this range.
    public var minorUnits: ClosedRange<Int64>?

    /// A filter that selects everything.
    public init() {}

    /// A filter with these fields; each one left out selects everything.
    public init(walletIDs: [WalletID] = [], categoryIDs: [CategoryID] = [], payers: [PersonID] = [], people: [PersonID] = [],
                shared: Bool? = nil, tags: [String] = [], kinds: [TransactionKind] = [], text: String? = nil,
                minorUnits: ClosedRange<Int64>? = nil) {
        self.walletIDs = walletIDs
        self.categoryIDs = categoryIDs
        self.payers = payers
        self.people = people
        self.shared = shared
        self.tags = tags
        self.kinds = kinds
        self.text = text
        self.minorUnits = minorUnits
    }
}
