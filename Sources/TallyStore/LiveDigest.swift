import Crypto
import Foundation
import GRDB

/// The digest of the store's live tables that the coverage row carries: the sum, modulo 2^256,
/// of SHA-256 over each row (its table, then every column name and value as SQLite returns
/// them). A sum, not a hash of the rows in order, so that a commit updates it for the rows it
/// writes (subtract the old row, add the new one): O(rows changed), not O(live rows).
///
/// What it is for: rows older or newer than the coverage they sit beside (an old page image
/// put back, a power loss mixing two commits) do not add up to the digest written with the
/// coverage, so ``LedgerStore/coverage()`` refuses them. It guards against accident, not
/// against an editor: anyone who can rewrite a row can rewrite the digest (`tally audit`
/// compares the store with a replay for that, Docs/Security.md).
struct LiveDigest: Equatable, Sendable {
    /// Four little-endian 64-bit lanes of one 256-bit number.
    private var lanes: [UInt64] = [0, 0, 0, 0]

    init() {}

    /// The digest as the coverage row stores it (32 bytes); nil for any other length.
    init?(bytes: Data) {
        guard bytes.count == 32 else { return nil }
        lanes = Self.lanes([UInt8](bytes))
    }

    /// 32 bytes as four little-endian lanes.
    private static func lanes(_ bytes: [UInt8]) -> [UInt64] {
        (0..<4).map { lane in
            (0..<8).reduce(UInt64(0)) { value, index in value | UInt64(bytes[lane * 8 + index]) << (8 * UInt64(index)) }
        }
    }

    /// The 32 bytes the coverage row stores.
    var bytes: Data {
        Data(lanes.flatMap { lane in (0..<8).map { UInt8(truncatingIfNeeded: lane >> (8 * UInt64($0))) } })
    }

    /// The 32 bytes in hexadecimal (what an audit compares and prints).
    var hex: String { Self.hex(bytes) }

    /// `bytes` in lowercase hexadecimal.
    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// Adds one row of `table`.
    mutating func add(_ row: Row, of table: String) { add(Self.rowHash(row, of: table)) }

    /// Takes one row of `table` out again.
    mutating func subtract(_ row: Row, of table: String) {
        // a - b = a + (2^256 - b) = a + (~b + 1)
        let hash = Self.rowHash(row, of: table)
        var negated = hash.map { ~$0 }
        var carry: UInt64 = 1
        for index in 0..<4 {
            let (sum, overflow) = negated[index].addingReportingOverflow(carry)
            negated[index] = sum
            carry = overflow ? 1 : 0
        }
        add(negated)
    }

    /// Adds another digest: the digest of two sets of rows is the sum of theirs.
    mutating func add(_ other: LiveDigest) { add(other.lanes) }

    private mutating func add(_ other: [UInt64]) {
        var carry: UInt64 = 0
        for index in 0..<4 {
            let (partial, first) = lanes[index].addingReportingOverflow(other[index])
            let (sum, second) = partial.addingReportingOverflow(carry)
            lanes[index] = sum
            carry = (first ? 1 : 0) + (second ? 1 : 0)
        }
    }

    /// SHA-256 of a row of `table`, as four lanes: the table's name, then each column's name
    /// and its value (``append(_:to:)``).
    private static func rowHash(_ row: Row, of table: String) -> [UInt64] {
        var bytes: [UInt8] = []
        append(counted: table.utf8, to: &bytes)
        for (column, value) in row {
            append(counted: column.utf8, to: &bytes)
            append(value, to: &bytes)
        }
        return lanes(Array(SHA256.hash(data: bytes)))
    }

    /// `value` as SQLite stores it: a storage class tag, then the integer's or the double's
    /// eight bytes, or the text's or the blob's length and bytes. No text is made per value
    /// (formatting each value was 10% of an audit's time).
    private static func append(_ value: DatabaseValue, to bytes: inout [UInt8]) {
        switch value.storage {
        case .null:
            bytes.append(0)
        case .int64(let integer):
            bytes.append(1)
            withUnsafeBytes(of: integer.littleEndian) { bytes.append(contentsOf: $0) }
        case .double(let double):
            bytes.append(2)
            withUnsafeBytes(of: double.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .string(let text):
            bytes.append(3)
            append(counted: text.utf8, to: &bytes)
        case .blob(let data):
            bytes.append(4)
            append(counted: data, to: &bytes)
        }
    }

    /// `data`'s length (eight bytes) and bytes.
    private static func append(counted data: some Collection<UInt8>, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt64(data.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: data)
    }

    /// The digest of every row of the live tables as they are now: O(live rows), for the
    /// check at open and after a rebuild.
    static func ofLiveTables(_ database: Database) throws -> LiveDigest {
        var digest = LiveDigest()
        for table in StoreSchema.liveTables { digest.add(try of(table, in: database)) }
        return digest
    }

    /// What ``LedgerStore/contentDigests()`` names the search index's digest (``ofSearchIndex(in:)``).
    static let searchIndexName = "transaction_search: index"

    /// SHA-256, in hexadecimal, of the entries of the search index: every (term, row, column,
    /// offset) a full scan of its segments' leaves (`transaction_search_data`) finds, through
    /// an `fts5vocab` table in the connection's temporary schema (the store file is not
    /// written). The rows of `transaction_search` are its content table's; these are the words
    /// a search matches, so leaves edited under unchanged rows (a search that finds a
    /// transaction by a word its row does not hold) differ from a rebuild's. The segment index
    /// (`_idx`) and the doclist indexes a search seeks through are not read by a scan: an edit
    /// of those is not seen (Docs/Reliability.md, I30.4). FTS5 yields the entries in index order
    /// (term, then row, column and offset) however the index was built or merged, so one hash
    /// over the stream suffices.
    static func ofSearchIndex(in database: Database) throws -> String {
        try database.execute(sql: """
            CREATE VIRTUAL TABLE IF NOT EXISTS temp.transaction_search_entries USING fts5vocab(main, transaction_search, instance)
            """)
        var hasher = SHA256()
        let rows = try Row.fetchCursor(database, sql: "SELECT term, doc, col, offset FROM temp.transaction_search_entries")
        var bytes: [UInt8] = []
        while let row = try rows.next() {
            bytes.removeAll(keepingCapacity: true)
            for value in row.databaseValues { append(value, to: &bytes) }
            hasher.update(data: bytes)
        }
        return hex(hasher.finalize())
    }

    /// The digest of every row of `table`, in any order: streamed, O(rows).
    static func of(_ table: String, in database: Database) throws -> LiveDigest {
        // A virtual (FTS5) table's rowid is not among its columns; the coverage row's epoch is
        // of the file (a random value), not of the history.
        let columns = switch table {
        case "transaction_search": "rowid, *"
        case "coverage": "id, sequence, chain, live_digest"
        default: "*"
        }
        var digest = LiveDigest()
        let rows = try Row.fetchCursor(database, sql: "SELECT \(columns) FROM \(table)")
        while let row = try rows.next() { digest.add(row, of: table) }
        return digest
    }
}
