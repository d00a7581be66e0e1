import ArgumentParser
import TallyInterchange
import TallyModel

/// What `tally export --format csv --entity` exports (Docs/Interchange.md, "CSV export").
enum CSVEntity: String, ExpressibleByArgument, CaseIterable {
    case transactions, wallets, goals, settlements, budgets, group, people, groups, subscriptions
}

extension CSVExporter.NumberFormat: ExpressibleByArgument {}

extension ExportCommand {
    /// The option combinations `--format csv` takes: each option only where it means something.
    /// - Throws: a validation error naming the option and what it needs.
    func validateCSVOptions() throws {
        guard format == .csv else {
            if entity != .transactions || group != nil || numberFormat != .plain || on != nil || viewer.person != nil {
                throw ValidationError("--entity, --group, --number-format, --on and --as go with --format csv")
            }
            return
        }
        if entity == .group, group == nil { throw ValidationError("--entity group needs --group NAME (the group's name or id)") }
        if entity != .group, group != nil { throw ValidationError("--group goes with --entity group") }
        if entity != .transactions, !wallets.isEmpty || !categories.isEmpty {
            throw ValidationError("--wallet and --category filter --entity transactions only")
        }
        if ![.transactions, .settlements, .budgets].contains(entity), from != nil || to != nil {
            throw ValidationError("--from and --to bound --entity transactions, settlements and budgets only")
        }
        if ![.wallets, .goals, .subscriptions].contains(entity), on != nil {
            throw ValidationError("--on goes with --entity wallets, goals and subscriptions")
        }
        if entity != .transactions, person != nil { throw ValidationError("--person filters --entity transactions; give --as PERSON for the viewer") }
        if person != nil, viewer.person != nil { throw ValidationError("--person and --as both name the viewer of a transactions export: give one") }
    }

    /// The CSV text of `--entity` for the viewer `--as` names (the audit read without it, G7).
    /// - Throws: a CLI error naming the ledger and the export's error code.
    func csv(_ history: LedgerHistory, path: String) throws -> String {
        let viewer = try self.viewer.viewer(in: history)
        let range = (from: try from.map { try LedgerAccess.date($0, option: "--from") }, through: try to.map { try LedgerAccess.date($0, option: "--to") })
        let date = try on.map { try LedgerAccess.date($0, option: "--on") }
        do {
            switch entity {
            case .transactions:
                let filter = CSVExporter.Filter(
                    from: range.from, through: range.through, wallets: wallets, categories: categories,
                    person: person ?? viewer.person?.description, numberFormat: numberFormat)
                return try CSVExporter.export(history, filter: filter)
            case .wallets:
                return try CSVExporter.wallets(history, asOf: date, visibleTo: viewer, numberFormat: numberFormat)
            case .goals:
                return try CSVExporter.goals(history, on: date ?? OnDateOption.today(), visibleTo: viewer, numberFormat: numberFormat)
            case .settlements:
                return try CSVExporter.settlements(history, from: range.from, through: range.through, visibleTo: viewer, numberFormat: numberFormat)
            case .budgets:
                return try CSVExporter.budgets(history, from: range.from, through: range.through, visibleTo: viewer, numberFormat: numberFormat)
            case .group:
                return try CSVExporter.groupReport(history, group: group ?? "", visibleTo: viewer, numberFormat: numberFormat)
            case .people:
                return CSVExporter.people(history, visibleTo: viewer)
            case .groups:
                return CSVExporter.groups(history, visibleTo: viewer)
            case .subscriptions:
                return CSVExporter.subscriptions(history, on: date ?? OnDateOption.today(), visibleTo: viewer, numberFormat: numberFormat)
            }
        } catch {
            throw CLIError.interchange(error, at: path)
        }
    }
}
