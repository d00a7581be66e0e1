import Foundation
import Tally

// Sources/Tally/Tally.docc/GettingStarted.md, "1. Open a ledger and set up the household": the article's block verbatim
// (EmbeddingGuideTests checks it), compiled here and in Examples/External with its own imports.
extension GuideBlocks {
    public static func openAndSetUp(directory: String) async throws -> (ledger: Ledger, alice: PersonID, joint: WalletID, today: LocalDate) {
        let ledger = try await Ledger.open(at: FilePath(directory))   // created when missing
        let alice = PersonID.random()
        let joint = WalletID.random()
        let zurich = TimeZone(identifier: "Europe/Zurich") ?? .gmt
        let today = try LocalDate(Date(), in: zurich)                 // the household's day, not the device's
        try await ledger.execute(
            .createHousehold(householdID: .random(), name: "Muster", baseCurrency: .chf, adminName: "Alice"),
            as: alice)
        try await ledger.execute(
            .openWallet(walletID: joint, name: "Joint account", kind: .bank,
                        openingBalance: try Money(Decimal(2_500), .chf), openedOn: today),
            as: alice)
        return (ledger, alice, joint, today)
    }
}
