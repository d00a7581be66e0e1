import TallyModel

extension CanonicalJSON {
    /// `{"currency":"CHF","minorUnits":1234}`.
    public init(_ money: Money) {
        self = .object(["currency": .string(money.currency.code), "minorUnits": .integer(money.minorUnits)])
    }

    /// An amount or `null`.
    public init(_ money: Money?) { self = money.map(CanonicalJSON.init) ?? .null }

    /// The ISO date `YYYY-MM-DD`.
    public init(_ date: LocalDate) { self = .string(date.isoString) }

    /// The ISO date or `null`.
    public init(_ date: LocalDate?) { self = date.map(CanonicalJSON.init) ?? .null }

    /// The lowercase canonical UUID text.
    public init<Kind>(_ id: Identifier<Kind>) { self = .string(id.description) }

    /// The id text or `null`.
    public init<Kind>(_ id: Identifier<Kind>?) { self = id.map(CanonicalJSON.init) ?? .null }

    /// A string or `null`.
    public init(_ text: String?) { self = text.map(CanonicalJSON.string) ?? .null }

    /// A personal text as `{"ownerID","text"}` (`text` null once redacted, P3), with
    /// `"sealed":true` added when it is sealed (not readable here); `null` when absent.
    public init(_ text: PersonalText?) {
        self = text.map { text in
            var object: [String: CanonicalJSON] = ["ownerID": CanonicalJSON(text.owner), "text": CanonicalJSON(text.text)]
            if text.isSealed { object["sealed"] = .bool(true) }
            return .object(object)
        } ?? .null
    }

    /// A problem as `{"message":...,"rule":...,"sequenceNumber":...}`.
    public init(_ problem: ProjectionProblem) {
        self = .object([
            "sequenceNumber": .integer(Int64(truncatingIfNeeded: problem.sequenceNumber)),
            "rule": .string(problem.rule), "message": .string(problem.message),
        ])
    }

    /// A settled item as `{"id":...,"kind":"transaction"|"groupExpense"}`.
    public init(_ item: SettledItem) {
        switch item {
        case .transaction(let id): self = .object(["kind": .string("transaction"), "id": CanonicalJSON(id)])
        case .groupExpense(let id): self = .object(["kind": .string("groupExpense"), "id": CanonicalJSON(id)])
        }
    }
}
