import TallyModel
import TallyTestSupport

/// A type whose random values exercise the codec: edge values, full ranges, Unicode.
protocol Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> Self
}

extension Int64: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> Int64 {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: random.pick([0, 1, -1, 63, -64, 64, 127, 128, .max, .min, .max - 1, .min + 1])
        case 1: Int64.random(in: -1000...1000, using: &random)
        case 2: Int64.random(in: -10_000_000_000...10_000_000_000, using: &random)
        default: Int64(bitPattern: random.next())
        }
    }
}

extension Int: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> Int { Int(truncatingIfNeeded: Int64.arbitrary(using: &random)) }
}

extension Bool: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> Bool { Bool.random(using: &random) }
}

extension String: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> String {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return random.pick(["", "Groceries", "Café Zürich", "Migros 🛒", "a\u{0}b", "日本語のメモ", "x\u{301}", "🇨🇭"])
        case 1:
            let length = Int.random(in: 0...300, using: &random)
            return String((0..<length).map { _ in Character(UnicodeScalar(UInt8.random(in: 32...126, using: &random))) })
        default:
            let length = Int.random(in: 0...12, using: &random)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length {
                let value = random.pick([UInt32(0)...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x1_0000...0x10_FFFF])
                if let scalar = UnicodeScalar(UInt32.random(in: value, using: &random)) { scalars.append(scalar) }
            }
            return String(scalars)
        }
    }
}

extension Optional: Arbitrary where Wrapped: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> Wrapped? {
        Bool.random(using: &random) ? Wrapped.arbitrary(using: &random) : nil
    }
}

extension Array: Arbitrary where Element: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> [Element] {
        (0..<Int.random(in: 0...4, using: &random)).map { _ in Element.arbitrary(using: &random) }
    }
}

extension Identifier: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> Identifier {
        Identifier(UUIDValue(high: random.next(), low: random.next()))
    }
}

extension Currency: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> Currency {
        let letter = { (random: inout SeededRandom) in UInt8.random(in: UInt8(ascii: "A")...UInt8(ascii: "Z"), using: &random) }
        guard Bool.random(using: &random),
              let currency = try? Currency(asciiBytes: letter(&random), letter(&random), letter(&random))
        else { return random.pick([.chf, .eur, .usd, .jpy, .bhd, .gbp]) }
        return currency
    }
}

extension Money: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> Money {
        Money(minorUnits: random.make(), currency: random.make())
    }
}

extension LocalDate: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> LocalDate {
        let days = Int64.random(in: LocalDate.min.daysSinceEpoch...LocalDate.max.daysSinceEpoch, using: &random)
        return (try? LocalDate(daysSinceEpoch: days)) ?? .min
    }
}

extension Ratio: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> Ratio {
        (try? Ratio(basisPoints: Int64.random(in: 0...10_000, using: &random))) ?? .zero
    }
}

extension ExchangeRate: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> ExchangeRate {
        // Retries the rare draw of two equal currencies.
        while true {
            let scaledRate = Int64.random(in: 1...Int64.max, using: &random)
            if let rate = try? ExchangeRate(base: random.make(), quote: random.make(), scaledRate: scaledRate) {
                return rate
            }
        }
    }
}

extension PersonShare: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> PersonShare { PersonShare(person: random.make(), amount: random.make()) }
}

extension MemberRatio: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> MemberRatio { MemberRatio(person: random.make(), ratio: random.make()) }
}

extension ImportColumnMapping: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> ImportColumnMapping { ImportColumnMapping(field: random.make(), column: random.make()) }
}

extension ImportCategoryMapping: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> ImportCategoryMapping { ImportCategoryMapping(name: random.make(), categoryID: random.make()) }
}

extension TransactionFilter: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> TransactionFilter {
        let bounds: (Int64, Int64) = (random.make(), random.make())
        return TransactionFilter(
            walletIDs: random.make(), categoryIDs: random.make(), payers: random.make(), people: random.make(), shared: random.make(),
            tags: random.make(), kinds: random.make(), text: random.make(),
            minorUnits: Bool.random(using: &random) ? min(bounds.0, bounds.1)...max(bounds.0, bounds.1) : nil)
    }
}

extension ReportRange: ArbitraryCase {}
extension ReportSpan: ArbitraryCase {}

extension ReportLayout: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> ReportLayout {
        ReportLayout(range: random.make(), span: random.make(), from: random.make(), through: random.make())
    }
}

extension MemberWeight: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> MemberWeight { MemberWeight(person: random.make(), weight: random.make()) }
}

extension TransactionSplit: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> TransactionSplit {
        TransactionSplit(ratios: random.make(), isOverride: random.make(), shares: random.make())
    }
}

extension PersonalText: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> PersonalText {
        Int.random(in: 0..<5, using: &random) == 0
            ? .redacted(owner: random.make()) : PersonalText(random.make(), owner: random.make())
    }
}

extension TransactionDetails: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> TransactionDetails {
        TransactionDetails(
            kind: random.make(), amount: random.make(), walletID: random.make(), categoryID: random.make(),
            date: random.make(), note: random.make(), tags: random.make(), payer: random.make(), split: random.make())
    }
}

extension GroupSplit: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> GroupSplit {
        switch random.pick(GroupSplitKind.allCases) {
        case .equal: .equal(random.make())
        case .exact: .exact(random.make())
        case .percentage: .percentage(random.make())
        case .shares: .shares(random.make())
        }
    }
}

extension ContentHash: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> ContentHash {
        let bytes = (0..<ContentHash.byteCount).map { _ in UInt8.random(in: 0...255, using: &random) }
        guard let hash = try? ContentHash(bytes: bytes) else { fatalError("32 bytes are a digest") }
        return hash
    }
}

extension SettledItem: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> SettledItem {
        Bool.random(using: &random) ? .transaction(random.make()) : .groupExpense(random.make())
    }
}

/// Enums pick a random case.
protocol ArbitraryCase: Arbitrary, CaseIterable {}

extension ArbitraryCase {
    static func arbitrary(using random: inout SeededRandom) -> Self { random.pick(Array(allCases)) }
}

extension WalletKind: ArbitraryCase {}
extension WalletDesignation: ArbitraryCase {}
extension WalletValuation: ArbitraryCase {}
extension WalletConnectionStatus: ArbitraryCase {}

extension YearMonth: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> YearMonth {
        (try? YearMonth(year: Int.random(in: 1...9_999, using: &random), month: Int.random(in: 1...12, using: &random)))
            ?? LocalDate.min.yearMonth
    }
}
extension CategoryGroup: ArbitraryCase {}
extension BudgetType: ArbitraryCase {}
extension TaxClass: ArbitraryCase {}
extension MemberRole: ArbitraryCase {}
extension TransactionKind: ArbitraryCase {}
extension RecurrenceFrequency: ArbitraryCase {}
extension BillingStatus: ArbitraryCase {}
extension TemplateSharingKind: ArbitraryCase {}

extension TemplateSharing: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> TemplateSharing { TemplateSharing(kind: random.make(), weights: random.make()) }
}

extension TemplateTerms: Arbitrary {
    static func arbitrary(using random: inout SeededRandom) -> TemplateTerms {
        TemplateTerms(endDate: random.make(), occurrenceCount: random.make(), trialEndsOn: random.make(), sharing: random.make())
    }
}
extension SplitRatioMode: ArbitraryCase {}
extension IncomeMode: ArbitraryCase {}

extension Event {
    /// A random event of the type `tag`, or of a random type.
    static func arbitrary(tag: EventTag? = nil, using random: inout SeededRandom) -> Event {
        let eventTag = tag ?? random.pick(EventTag.allCases)
        return Event(
            commandID: random.make(), actor: random.make(),
            recordedAt: Timestamp(millisecondsSinceEpoch: random.make()),
            payload: EventPayload.arbitrary(tag: eventTag, using: &random))
    }
}
