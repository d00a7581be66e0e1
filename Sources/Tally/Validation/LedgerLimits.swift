/// Limits the engine enforces on commands (STYLE 7: everything has a limit).
public enum LedgerLimits {
    /// The largest amount a command may carry, in minor units (10^15, e.g. CHF 10 trillion);
    /// rule `invalidValue` (G6). Every amount of every event a command produces is checked.
    public static let amountMinorUnitsMax: Int64 = 1_000_000_000_000_000
    /// The most the magnitudes of all amounts ever recorded in one currency may add up to, in
    /// its minor units (10^17): a bound on any balance, debt, group or budget total in that
    /// currency on any date (`MoneyExposure`). A command that would pass it is rejected with
    /// `totalOutOfRange` (G1). 10^17 leaves a factor of 92 to `Int64.max` for read-model
    /// figures that scale a sum (monthly equivalents, percentages).
    public static let currencyExposureMinorUnitsMax: Int64 = 100_000_000_000_000_000
    /// The most any total converted into the base currency may reach, in its minor units
    /// (10^17): per currency, the exposure times the largest conversion factor any rate set so
    /// far gives, summed (`MoneyExposure.convertedMinorUnits(into:)`). A command (an amount,
    /// a new rate, a base-currency change) that would pass it is rejected with
    /// `totalOutOfRange` (G1, N1, N3).
    public static let convertedExposureMinorUnitsMax: Int64 = 100_000_000_000_000_000
    /// The largest exchange rate accepted, scaled by 10^8 (10^15: one unit worth ten million
    /// of the other); rule `invalidValue` (G2). Keeps the 128-bit conversion of any bounded
    /// sum from overflowing; the smallest rate is 10^-8 (a scaled rate of 1).
    public static let exchangeRateScaledMax: Int64 = 1_000_000_000_000_000
    /// The most `PeriodClosed` events one command may add (100 years of monthly periods) (B6).
    public static let periodsClosedPerCommandMax = 1200
    /// The longest name (wallet, category, person, group, household) and a transaction's payee
    /// and subtitle (Swiff 1.1.2) in UTF-8 bytes.
    public static let nameBytesMax = 200
    /// The most occurrences searched when checking a template date (T4).
    public static let templateOccurrencesMax = 10_000
    /// The most cycle changes one recurring item keeps (R1, `editTemplate` with a cycle): every
    /// occurrence walk reads them.
    public static let cycleChangesMax = 100
    /// The most occurrences one `postDueOccurrences` may record (R1); rule `inputTooLarge`:
    /// post through an earlier date first.
    public static let occurrencesPerPostMax = 1000
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
    /// The most commands one `loadSampleData` names (E5-S6): a demo household, not a history.
    public static let sampleCommandsMax = 1000
    /// The most items one settlement's `covers` may name (G6).
    public static let settlementCoversMax = 1000
    /// Live goals per household (R2).
    public static let goalsMax = 100
    /// Goals ever created, deleted ones included (they can be restored, so they stay in the
    /// state): what bounds the goal check after every wallet event (R2).
    public static let goalsCreatedMax = 1_000
    /// Saved scenarios per household (R3).
    public static let scenariosMax = 100
    /// Saved views (filters and report templates) per member (Flow US-058).
    public static let viewsPerPersonMax = 200
    /// Budget alert thresholds (R6).
    public static let alertThresholdsMax = 10
    /// Files attached to one transaction or group expense at once (T6).
    public static let attachmentsPerItemMax = 20
    /// The largest file an attachment may name, in bytes (T6): 1 GiB. The bytes are the host's;
    /// the bound keeps a size a reading app can trust.
    public static let attachmentBytesMax: Int64 = 1 << 30
    /// The longest media type, in bytes (RFC 6838 allows 127 characters per part) (T6).
    public static let mediaTypeBytesMax = 255
}
