import TallyModel

/// How the CLI shows a wallet's balance: an asset's balance signed (`-CHF 12.00` is overdrawn);
/// a liability's (card, loan: W1) the way a card or loan statement does, as an amount without a
/// sign followed by which side it is on. The read models keep a liability's balance as the
/// amount owed, so a positive balance is a debt (`EUR 64.50` `owed`) and a negative one is money
/// paid in beyond the debt (`EUR 9.75` `in credit`). JSON output keeps the signed minor units.
enum WalletBalanceText {
    /// The side of a liability's balance that is a debt (zero included: nothing is owed).
    static let owed = "owed"
    /// The side of a liability's balance paid beyond the debt.
    static let inCredit = "in credit"

    /// The balance column: an asset's signed amount, a liability's amount without its sign.
    static func amount(_ balance: Money, isLiability: Bool) -> String {
        let text = balance.formatted()
        guard isLiability else { return text }
        return String(text.drop { $0 == "-" })
    }

    /// The column beside it: ``owed`` or ``inCredit`` for a liability, empty for an asset.
    static func side(_ balance: Money, isLiability: Bool) -> String {
        guard isLiability else { return "" }
        return balance.isNegative ? inCredit : owed
    }
}
