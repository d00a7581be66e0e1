import TallyModel

extension FixtureEvents {
    /// `CategoryTaxClassSet` (tag 611, version 1), Swiss tax categorization and Phase 5 business:
    /// groceries filed as medical, then business, then the class removed.
    static let taxClass: [Event] = [
        Event(commandID: id(8611), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_500_000_000),
              payload: .categoryTaxClassSet(CategoryTaxClassSet(categoryID: groceries, taxClass: .medical))),
        Event(commandID: id(8612), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_500_001_000),
              payload: .categoryTaxClassSet(CategoryTaxClassSet(categoryID: groceries, taxClass: .business))),
        Event(commandID: id(8613), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_500_002_000),
              payload: .categoryTaxClassSet(CategoryTaxClassSet(categoryID: groceries, taxClass: nil))),
    ]
}
