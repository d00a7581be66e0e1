import TallyModel

/// A (category, transaction) pair: the key of ``Projections/categoryMembers``, the category's
/// id bytes first, so that a category's transactions are one key range of the archive.
struct CategoryMember: Hashable, Comparable, Sendable {
    let category: CategoryID
    let transaction: TransactionID

    static func < (lhs: CategoryMember, rhs: CategoryMember) -> Bool {
        (lhs.category, lhs.transaction) < (rhs.category, rhs.transaction)
    }
}

extension CategoryMember: ArchivedState {
    func encode(to writer: inout BinaryWriter) {
        category.encode(to: &writer)
        transaction.encode(to: &writer)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(category: try reader.read(), transaction: try reader.read())
    }
}

extension ArchivedMap where Key == CategoryMember, Value == Bool {
    /// The transactions in `category`, deleted ones included, by id: one key range, whether in
    /// memory or in the archive.
    func transactionIDs(in category: CategoryID) -> [TransactionID] {
        entries(
            from: category.archiveBytes + [UInt8](repeating: 0, count: 16),
            through: category.archiveBytes + [UInt8](repeating: 0xFF, count: 16),
            where: { $0.category == category }
        ).filter(\.value).map(\.key.transaction).sorted()
    }

    /// Moves `transaction` from category `old` (nil: new) to `new`; a move out leaves `false`
    /// (the archive keeps the key).
    mutating func move(_ transaction: TransactionID, from old: CategoryID?, to new: CategoryID) {
        guard old != new else { return }
        if let old { self[CategoryMember(category: old, transaction: transaction)] = false }
        self[CategoryMember(category: new, transaction: transaction)] = true
    }
}
