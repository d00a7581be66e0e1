/// Limits the engine enforces on commands (STYLE 7: everything has a limit).
public enum LedgerLimits {
    /// The largest amount a command may carry, in minor units (10^15, e.g. CHF 10 trillion).
    /// Keeps every sum the engine folds far from `Int64` overflow (G1).
    public static let amountMinorUnitsMax: Int64 = 1_000_000_000_000_000
    /// The most `PeriodClosed` events one command may add (100 years of monthly periods) (B6).
    public static let periodsClosedPerCommandMax = 1200
    /// The longest name (wallet, category, person, group, household) in UTF-8 bytes.
    public static let nameBytesMax = 200
    /// The most occurrences searched when checking a template date (T4).
    public static let templateOccurrencesMax = 10_000
    /// The longest note (transaction, template, transfer, group expense) in UTF-8 bytes (G6).
    public static let noteBytesMax = 4096
    /// The most tags one transaction or template may carry (G6).
    public static let tagsPerTransactionMax = 32
    /// The longest tag in UTF-8 bytes (G6).
    public static let tagBytesMax = 64
    /// The most entries in one list of people or ids of a command: group members, split
    /// ratios and ratio overrides, the people, amounts, ratios or weights of a group split,
    /// income categories (G6).
    public static let listEntriesMax = 100
    /// The most items one settlement's `covers` may name (G6).
    public static let settlementCoversMax = 1000
}
