import Tally

// Sources/Tally/Tally.docc/Embedding.md, "Open, observe, execute, close": the guide's block verbatim (EmbeddingGuideTests
// checks it), compiled here and in Examples/External, against the public API with its own imports.
extension GuideBlocks {
    public static func openObserveExecuteClose(directory: String, me: PersonID, jsonLine: String, show: @escaping @Sendable ([WalletBalance]) -> Void) async throws {
        let ledger = try await Ledger.open(at: FilePath(directory))
        // The balances screen: the current value first, then one value per commit that changed it.
        let balances = await ledger.observe { db in try db.walletBalances(visibleTo: .member(me)) }
        let screen = Task {
            for try await wallets in balances { show(wallets) }  // ends when the ledger closes
        }
        try await ledger.execute(try CommandParser.parse(line: jsonLine))  // or build Command values
        try await ledger.close()
        try await screen.value
    }
}
