import TallyModel

extension WalletProjection {
    /// The read model as canonical JSON (see `Docs/Projections.md`):
    /// `{"baseCurrency","problems","reconciliations","totals","wallets"}`.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when a balance does not fit.
    public func canonicalJSON() throws(ProjectionError) -> CanonicalJSON { try canonicalJSON(asOf: nil) }

    /// The read model as canonical JSON at the end of `date` (balances, totals with `asOf`,
    /// balance points and reconciliations up to it); `nil` for all recorded movements.
    public func canonicalJSON(asOf date: LocalDate?) throws(ProjectionError) -> CanonicalJSON {
        let upToDate = { (day: LocalDate) in date.map { day <= $0 } ?? true }
        let wallets = try balances(asOf: date).map { balance -> CanonicalJSON in
            .object([
                "walletID": CanonicalJSON(balance.walletID), "name": .string(balance.name),
                "kind": .string("\(balance.kind)"), "valuation": .string("\(balance.valuation)"), "owner": CanonicalJSON(balance.owner),
                "isActive": .bool(balance.isActive), "closedOn": CanonicalJSON(balance.closedOn),
                "balance": CanonicalJSON(balance.balance),
                "isLiability": .bool(balance.kind.isLiability),
                "liveTransactionCount": .integer(Int64(balance.liveTransactionCount)),
                "balancePoints": .array(balancePoints(of: balance.walletID).filter { upToDate($0.date) }.map { point in
                    .object(["date": CanonicalJSON(point.date), "balance": CanonicalJSON(point.balance)])
                }),
                "connection": Self.connectionJSON(self.wallets[balance.walletID]?.connection),
                "designations": .array(designations(of: balance.walletID).map { set in
                    .object(["designation": set.designation.map { .string("\($0)") } ?? .null, "fromMonth": set.fromMonth.map { .string($0.isoString) } ?? .null])
                }),
            ])
        }
        let reconciliations = try reconciliations().filter { upToDate($0.date) }.map { item -> CanonicalJSON in
            .object([
                "walletID": CanonicalJSON(item.walletID), "date": CanonicalJSON(item.date),
                "asserted": CanonicalJSON(item.asserted), "derived": CanonicalJSON(item.derived),
                "difference": CanonicalJSON(item.difference),
            ])
        }
        return .object([
            "baseCurrency": baseCurrency.map { .string($0.code) } ?? .null,
            "wallets": .array(wallets),
            "totals": CanonicalJSON(try totals(asOf: date)),
            "reconciliations": .array(reconciliations),
            "problems": .array(problems.map(CanonicalJSON.init)),
        ])
    }
}

extension WalletProjection {
    /// A wallet's bank connection (Tim Step 2.2) as `{"externalAccountID","institution","status"}`, `null` when none.
    static func connectionJSON(_ connection: WalletConnectionSet?) -> CanonicalJSON {
        guard let connection else { return .null }
        let status: CanonicalJSON = connection.status.map { .string("\($0)") } ?? .null
        return .object([
            "institution": CanonicalJSON(connection.institution), "externalAccountID": CanonicalJSON(connection.externalAccountID),
            "status": status,
        ])
    }
}

extension CanonicalJSON {
    /// Totals as `{"asOf","baseTotal","complete","missingRates","perCurrency"}`.
    public init(_ totals: WalletTotals) {
        self = .object([
            "asOf": CanonicalJSON(totals.asOf),
            "perCurrency": .array(totals.perCurrency.map(CanonicalJSON.init)),
            "baseTotal": CanonicalJSON(totals.baseTotal),
            "missingRates": .array(totals.missingRates.map { .string($0.code) }),
            "complete": .bool(totals.isComplete),
        ])
    }
}
