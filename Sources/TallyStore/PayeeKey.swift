import Foundation
import TallyModel
import TallyProjections

/// A payee as category suggestions compare it (Flow US-072): case and diacritics folded
/// without a locale (G3), runs of whitespace as one space, trimmed (`" MIGROS  Zürich"` is
/// `"migros zurich"`). The store keeps each transaction's in `transactions.payee_key`, indexed
/// (`transactions_by_payee`), so a payee's transactions are one index range, not a scan.
public struct PayeeKey: Hashable, Sendable, CustomStringConvertible {
    /// The folded text, never empty.
    public let value: String

    /// The key of `payee`; `nil` when it holds nothing but whitespace.
    public init?(payee: String) {
        let folded = payee.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !folded.isEmpty else { return nil }
        value = folded
    }

    /// The key of a note written by the CSV import before payees had a field of their own
    /// (`payee: note`, Docs/Interchange.md "Payee"): the text before the first `": "`, else the
    /// whole note; `nil` when that is empty.
    public init?(note: String) {
        self.init(payee: note.range(of: ": ").map { String(note[..<$0.lowerBound]) } ?? note)
    }

    /// The key an entry learns or asks under (the one rule): its payee's (Swiff 1.1.2), else,
    /// without a payee, its note's (rows imported before payees had a field); `nil` with neither.
    public init?(payee: String?, note: String?) {
        if let payee {
            self.init(payee: payee)
        } else if let note {
            self.init(note: note)
        } else {
            return nil
        }
    }

    /// The key a transaction's suggestions learn under (``init(payee:note:)``); `nil` when it has
    /// none or its payee is redacted (P3: a forgotten person's texts teach nothing, not even
    /// through the note) or sealed (unreadable here).
    package init?(of record: TransactionRecord) {
        if let payee = record.payee, payee.text == nil { return nil }
        self.init(payee: record.payee?.text, note: record.details.note?.text)
    }

    public var description: String { value }
}
