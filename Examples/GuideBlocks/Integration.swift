import Tally

// Sources/Tally/Tally.docc/Embedding.md, "Integrations: committed events in order": the guide's block verbatim (EmbeddingGuideTests
// checks it), compiled here and in Examples/External, against the public API with its own imports.
extension GuideBlocks {
    public static func follow(ledger: Ledger, forwardedThrough: UInt64, forward: @escaping @Sendable (CommittedEvent) -> Void) -> Task<Void, any Error> {
        let follower = Task {
            // Every event after the last one forwarded, then each new one, until the ledger closes.
            for try await committed in ledger.committedEvents(after: forwardedThrough) { forward(committed) }
        }
        return follower
    }
}
