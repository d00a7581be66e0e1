import TallyModel

/// Sample data (E5-S6): what a list flags as sample.
extension Ledger {
    /// The sample data loaded now (`loadSampleData`), or `nil`: a screen flags each entry it
    /// lists with ``SampleData/contains(transaction:)``, ``SampleData/contains(wallet:)`` and the
    /// like; `clearSampleData` removes the sample. It takes no viewer: it lists no entry and
    /// answers only for the ids a viewer's own reads returned (G7).
    public var sampleData: SampleData? { shownState.sample }
}
