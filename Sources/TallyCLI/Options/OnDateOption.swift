import ArgumentParser
import Foundation
import TallyModel

/// `--on DATE`: the date a read-only view is for (`subscriptions`, `goals`, `scenarios`,
/// `alerts`), today (UTC) when absent: the CLI is the host and may read the clock (the engine
/// never does, G3).
struct OnDateOption: ParsableArguments {
    @Option(name: .customLong("on"), help: ArgumentHelp("The date the figures are for; default today (UTC).", valueName: "DATE"))
    var on: String?

    /// The date asked for, or today's UTC date.
    var date: LocalDate {
        get throws { try on.map { try LedgerAccess.date($0, option: "--on") } ?? Self.today() }
    }

    /// Today's UTC date.
    static func today() -> LocalDate {
        let days = Int64((Date().timeIntervalSince1970 / 86_400).rounded(.down))
        return (try? LocalDate(daysSinceEpoch: days)) ?? .min
    }
}
