/// What a store covers: the journal position its rows reflect.
///
/// Written in the same SQLite transaction as the rows, so the two never disagree. The chain value
/// is the journal's hash-chain value after `sequenceNumber` (`Docs/JournalFormat.md`): a store
/// whose chain value differs from the journal's at the same position belongs to another ledger
/// or to a journal that was cut and rewritten, and is rebuilt.
package struct StoreCoverage: Sendable, Equatable {
    /// The last journal sequence number applied (0: an empty ledger).
    package var sequenceNumber: UInt64
    /// The journal's chain value after it (32 bytes).
    package var chainValue: [UInt8]

    /// A coverage.
    package init(sequenceNumber: UInt64, chainValue: [UInt8]) {
        self.sequenceNumber = sequenceNumber
        self.chainValue = chainValue
    }
}
