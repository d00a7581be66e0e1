import Tally

// Sources/Tally/Tally.docc/Embedding.md, "SwiftUI: ObservedValue": the guide's block verbatim (EmbeddingGuideTests
// checks it), compiled here and in Examples/External, against the public API with its own imports.

@MainActor
final class BalancesModel {
    let balances: ObservedValue<[WalletBalance]>
    init(ledger: Ledger, me: PersonID) { balances = ObservedValue(ledger) { db in try db.walletBalances(visibleTo: .member(me)) } }
}

extension GuideBlocks {
    /// The guide's model, made on the main actor.
    @MainActor
    public static func balancesModel(ledger: Ledger, me: PersonID) -> ObservedValue<[WalletBalance]> { BalancesModel(ledger: ledger, me: me).balances }
}
