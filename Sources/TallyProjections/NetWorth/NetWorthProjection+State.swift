import TallyModel

extension NetWorthProjection {
    /// The read model as canonical JSON: `{"baseCurrency","baseline","problems","series"}`.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func canonicalJSON() throws(ProjectionError) -> CanonicalJSON {
        .object([
            "baseCurrency": .string(baseCurrency.code),
            "series": .array(try series().map(CanonicalJSON.init)),
            "baseline": .array(try baseline().map(CanonicalJSON.init)),
            "problems": .array(problems.map(CanonicalJSON.init)),
        ])
    }
}

extension CanonicalJSON {
    /// A net worth point.
    public init(_ point: NetWorthPoint) {
        self = .object([
            "month": .string(point.month.isoString), "value": CanonicalJSON(point.value),
            "complete": .bool(point.isComplete),
            "missingRates": .array(point.missingRates.map { .string($0.code) }),
            "contributions": .array(point.contributions.map { contribution in
                .object([
                    "walletID": CanonicalJSON(contribution.walletID), "value": CanonicalJSON(contribution.value),
                    "converted": CanonicalJSON(contribution.converted),
                ])
            }),
        ])
    }

    /// A month of flows (N5): `{"currency","inflow","isComplete","missingRates","month","outflow","wallets"}`,
    /// each wallet `{"base","change","convertedChange","designation","inflow","latest","outflow","source","walletID"}`.
    public init(_ flows: MonthlyFlows) {
        self = .object([
            "month": .string(flows.month.isoString), "currency": .string(flows.currency.code),
            "inflow": CanonicalJSON(flows.inflow), "outflow": CanonicalJSON(flows.outflow),
            "isComplete": .bool(flows.isComplete),
            "missingRates": .array(flows.missingRates.map { .string($0.code) }),
            "wallets": .array(flows.wallets.map { wallet in
                .object([
                    "walletID": CanonicalJSON(wallet.walletID), "designation": .string("\(wallet.designation)"),
                    "source": .string(wallet.source.rawValue), "base": CanonicalJSON(wallet.base),
                    "latest": CanonicalJSON(wallet.latest), "change": CanonicalJSON(wallet.change),
                    "convertedChange": CanonicalJSON(wallet.convertedChange),
                    "inflow": CanonicalJSON(wallet.inflow), "outflow": CanonicalJSON(wallet.outflow),
                ])
            }),
        ])
    }
}
