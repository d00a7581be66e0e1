/// Largest-remainder allocation of an amount into shares (S3): the one rounding rule for
/// household splits (S1/S2), group splits (S7) and the 50/30/20 suggestion (B3).
///
/// Each share first gets the floor of its exact value `amount * weight / totalWeight` in minor
/// units; the leftover units go one each to the shares with the largest remainders. Ties are
/// broken by the larger weight, then the preferred key (the payer), then the lowest key. The
/// shares always sum exactly to the amount.
///
/// Negative amounts (refunds, reversals) are split symmetrically: the magnitude is allocated and
/// every share negated, so `split(-x)` is exactly `-split(x)`.
///
/// Events store the result (G4): replay never calls this again.
public enum Allocation {
    /// Splits `amount` by weights among people.
    ///
    /// - Parameters:
    ///   - amount: the amount to split, any sign.
    ///   - weights: one entry per person, in the order wanted in the result; weights are
    ///     non-negative (basis points, shares, or 1 each for an equal split) and sum to more
    ///     than zero. A person with weight 0 gets zero.
    ///   - payer: the person preferred in a remainder tie (S3), if any.
    /// - Returns: one share per entry of `weights`, in the same order, summing to `amount`.
    /// - Throws: ``ModelError/invalidAllocation(reason:)`` for no entries, a negative weight, a
    ///   zero total or a person listed twice; ``ModelError/overflow(operation:)`` when the weights'
    ///   total does not fit in `Int64`.
    public static func split(
        _ amount: Money, weights: [(person: PersonID, weight: Int64)], payer: PersonID?
    ) throws(ModelError) -> [PersonShare] {
        let units = try allocate(amount.minorUnits, weights: weights.map { ($0.person, $0.weight) }, preferred: payer)
        return zip(weights, units).map { entry, share in
            PersonShare(person: entry.person, amount: Money(minorUnits: share, currency: amount.currency))
        }
    }

    /// Splits `amount` equally among `people` (S7 "equal"), in the given order.
    /// - Throws: as ``split(_:weights:payer:)``.
    public static func splitEqually(
        _ amount: Money, among people: [PersonID], payer: PersonID?
    ) throws(ModelError) -> [PersonShare] {
        try split(amount, weights: people.map { ($0, 1) }, payer: payer)
    }

    /// Splits `amount` by ratios in basis points (S1 household ratios, S7 percentages).
    /// - Throws: as ``split(_:weights:payer:)``; ratios need not sum to 10000 here, the caller
    ///   validates that rule.
    public static func split(
        _ amount: Money, ratios: [MemberRatio], payer: PersonID?
    ) throws(ModelError) -> [PersonShare] {
        try split(amount, weights: ratios.map { ($0.person, $0.ratio.basisPoints) }, payer: payer)
    }

    /// Splits an income into the 50/30/20 suggestion (B3): needs 50%, wants 30%, savings 20%,
    /// rounded as S3 (ties prefer needs, then wants).
    /// - Returns: the three amounts, summing to `income`.
    public static func fiftyThirtyTwenty(_ income: Money) -> (needs: Money, wants: Money, savings: Money) {
        // The weights are fixed and valid, so allocation cannot fail.
        let weights: [(key: Int, weight: Int64)] = [(0, 50), (1, 30), (2, 20)]
        let units = (try? allocate(income.minorUnits, weights: weights, preferred: nil)) ?? [0, 0, 0]
        let make = { (value: Int64) in Money(minorUnits: value, currency: income.currency) }
        return (make(units[0]), make(units[1]), make(units[2]))
    }

    /// The core rule on raw minor units, for any comparable key.
    ///
    /// - Returns: one value per entry of `weights`, same order, summing to `amount`.
    /// - Throws: as ``split(_:weights:payer:)``.
    public static func allocate<Key: Comparable & Hashable>(
        _ amount: Int64, weights: [(key: Key, weight: Int64)], preferred: Key?
    ) throws(ModelError) -> [Int64] {
        guard !weights.isEmpty else { throw .invalidAllocation(reason: "no one to split among") }
        var total: Int64 = 0
        var seen = Set<Key>(minimumCapacity: weights.count)
        for entry in weights {
            guard entry.weight >= 0 else { throw .invalidAllocation(reason: "negative weight \(entry.weight)") }
            guard seen.insert(entry.key).inserted else { throw .invalidAllocation(reason: "\(entry.key) is listed twice") }
            let (sum, overflow) = total.addingReportingOverflow(entry.weight)
            guard !overflow else { throw .overflow(operation: "sum of allocation weights") }
            total = sum
        }
        guard total > 0 else { throw .invalidAllocation(reason: "weights sum to zero") }

        let magnitude = UInt128(amount.magnitude)
        var shares: [UInt128] = []
        var remainders: [UInt128] = []
        shares.reserveCapacity(weights.count)
        remainders.reserveCapacity(weights.count)
        var allocated: UInt128 = 0
        for entry in weights {
            let exact = magnitude * UInt128(entry.weight)
            shares.append(exact / UInt128(total))
            remainders.append(exact % UInt128(total))
            allocated += exact / UInt128(total)
        }
        let leftover = Int(magnitude - allocated)  // < weights.count, since each floor loses < 1
        let order = weights.indices.sorted { left, right in
            if remainders[left] != remainders[right] { return remainders[left] > remainders[right] }
            if weights[left].weight != weights[right].weight { return weights[left].weight > weights[right].weight }
            let leftPreferred = weights[left].key == preferred
            let rightPreferred = weights[right].key == preferred
            if leftPreferred != rightPreferred { return leftPreferred }
            return weights[left].key < weights[right].key
        }
        for index in order.prefix(leftover) { shares[index] += 1 }
        // A negative share is formed in two's complement so that Int64.min survives.
        return shares.map { share in Int64(truncatingIfNeeded: amount < 0 ? 0 &- share : share) }
    }
}
