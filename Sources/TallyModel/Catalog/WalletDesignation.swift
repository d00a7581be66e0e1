/// Which monthly flows a wallet's net change counts in (N5, Tim's inflow/outflow toggles).
///
/// The raw values are stored in events: never change or reuse one.
public enum WalletDesignation: UInt8, CaseIterable, Hashable, Sendable {
    /// Counts for nothing: also what a wallet never designated counts as (Tim's accounts start
    /// with `is_inflow = false, is_outflow = false`).
    case neither = 0
    /// A positive change counts as inflow.
    case inflow = 1
    /// A negative change counts as outflow.
    case outflow = 2
    /// A positive change counts as inflow and a negative one as outflow.
    case both = 3

    /// Whether a positive monthly change counts as inflow.
    public var countsInflow: Bool { self == .inflow || self == .both }
    /// Whether a negative monthly change counts as outflow.
    public var countsOutflow: Bool { self == .outflow || self == .both }
}

extension WalletDesignation {
    /// A wallet's designation timeline with `event` applied: one entry per `fromMonth`, `nil`
    /// first then by month; the event replaces the entry for its `fromMonth`, or removes it
    /// when its designation is `nil`. The one rule of the engine (undo) and the wallet read model.
    public static func timeline(_ current: [WalletDesignationSet], adding event: WalletDesignationSet) -> [WalletDesignationSet] {
        var result = current.filter { $0.fromMonth != event.fromMonth }
        guard event.designation != nil else { return result }
        let index = result.firstIndex { held in isBefore(event.fromMonth, held.fromMonth) } ?? result.endIndex
        result.insert(event, at: index)
        return result
    }

    /// The designation in force for `month` (N5) on a ``timeline(_:adding:)``: the entry with
    /// the latest `fromMonth` at or before `month`; ``neither`` when none applies.
    /// - Parameter month: the month; `nil` asks for the entry that applies from the beginning.
    public static func inForce(_ timeline: [WalletDesignationSet], in month: YearMonth?) -> WalletDesignation {
        timeline.last { !isBefore(month, $0.fromMonth) }?.designation ?? .neither
    }

    /// `lhs < rhs` with `nil` before every month.
    private static func isBefore(_ lhs: YearMonth?, _ rhs: YearMonth?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): false
        case (nil, _): true
        case (_, nil): false
        case (let left?, let right?): left < right
        }
    }
}
