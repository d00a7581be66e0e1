import ArgumentParser
import Foundation
import SystemPackage
import Tally
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally import`: CSV transactions into a wallet, or a JSON backup into an empty ledger (or
/// over one, `--replace`, or merged into one, `--merge`).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a CSV file of transactions or of balances into a wallet, or restore (or merge) a JSON backup.",
        discussion: "Prints one JSON line per row ({line,status,reason,column}) and a summary. A CSV file is one batch: when any row fails, nothing is imported and the exit status is 1; with --skip-invalid the valid rows are imported, each failed row is printed with its line and column, and the exit status is 1 when one failed.")

    enum Kind: String, ExpressibleByArgument, CaseIterable { case csv, balances, backup, person }

    @Argument(help: "csv (transactions), balances (a wallet's balance history: each row a balance point, W5; a point of the same wallet and date is a duplicate), backup, or person (a `tally export --format person` file, into a new ledger: leaving a household, US-008).") var kind: Kind
    @Argument(help: ArgumentHelp("The file to import.", valueName: "FILE")) var file: String
    @OptionGroup var location: LedgerOption
    @OptionGroup var key: KeyOptions
    @Option(help: "The wallet of rows without an account cell (name or id).") var wallet: String?
    @Option(help: ArgumentHelp("Column mapping: date=COL,amount=COL,note=COL,category=COL,type=COL,account=COL,payee=COL,external_id=COL, or the NAME of a mapping saved with `tally import-mapping save`.", valueName: "MAP|NAME")) var mapping: String?
    @Option(name: .customLong("category-map"), help: ArgumentHelp("The file's category names to the ledger's: Food=Groceries,Essen=Groceries.", valueName: "MAP")) var categoryMap: String?
    @Option(help: ArgumentHelp("What a row that duplicates a live transaction does: skip (default), replace (edit it to the row's values) or keep-both (record the row beside it; not for a row whose external id was imported before).", valueName: "skip|replace|keep-both")) var duplicates: String?
    @Option(name: .customLong("unknown-categories"), help: ArgumentHelp("What a row whose category the ledger does not have does: fail (default) or create (the import creates the category, listed for review).", valueName: "fail|create")) var unknownCategories: String?
    @Option(help: ArgumentHelp("Mark every transaction the import records with the tag import:NAME (a bank, a file), so lists show and filter it (tally transactions --tag import:NAME).", valueName: "NAME")) var source: String?
    @Option(name: .customLong("date-format"), help: "iso, dmy or mdy; default: detected.") var dateFormat: String?
    @Option(name: .customLong("default-category"), help: "Category for rows without one.") var defaultCategory: String?
    @Option(name: .customLong("recorded-at"), help: "When the commands are recorded (UTC ISO 8601); default now.") var recordedAt: String?
    @Flag(name: .customLong("dry-run"), help: "Show what would be imported; change nothing.") var dryRun = false
    @Flag(name: .customLong("skip-invalid"), help: "Import the valid rows and report each invalid one by line and column (default: a file with an invalid row imports nothing).")
    var skipInvalid = false
    @Option(name: .customLong("household-name"), help: "import person: the new household's name (default: NAME's household).") var householdName: String?
    @Option(name: .customLong("household-id"), help: "import person: the new household's id (UUID); generated when absent.") var householdID: String?
    @Option(name: .customLong("admin-name"), help: "import person: the person's name, when the export has none (forgotten).") var adminName: String?
    @Flag(name: .customLong("accept-unverified-backup"),
          help: "Restore a version 1 or 2 backup, which has no checksum: damage in it cannot be detected. Re-export instead when you can.")
    var acceptUnverifiedBackup = false
    @OptionGroup var backupKey: BackupKeyOptions
    @Flag(name: .customLong("replace"), help: "Restore over the ledger at --ledger (after the backup verified and the restored ledger audited clean); the old one is kept beside it as NAME.replaced-N.")
    var replace = false
    @Flag(name: .customLong("accept-unreadable-texts"),
          help: "Restore a backup made --without-keys although some people's keys are nowhere: their names and notes stay unreadable, for good.")
    var acceptUnreadableTexts = false
    @Flag(name: .customLong("merge"), help: "Merge the backup into the ledger at --ledger (Swiff 2.4.3): add the entities it does not have, keep the ones it has; with --dry-run only the plan is printed.")
    var merge = false
    @Flag(name: .customLong("skip-refused"), help: "import backup --merge: add what the ledger accepts and leave out the entities its rules refuse (default: one refusal merges nothing).")
    var skipRefused = false

    func run() async throws {
        let path = try location.path()
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError("\(file): cannot read the file") }
        // A backup restore settles the target itself (a leftover it rebuilds is not refused);
        // a CSV import settles it in LedgerAccess.history.
        if kind == .person { try LedgerAccess.settleSwap(at: path) }
        guard kind == .backup || !merge else { throw CLIError("--merge goes with import backup") }
        guard merge || !skipRefused else { throw CLIError("--skip-refused goes with import backup --merge") }
        if kind == .backup, merge {
            try await mergeBackup(data, into: path)
            return
        }
        if kind == .backup {
            var options = LedgerBackup.RestoreOptions()
            options.acceptingUnverifiedFormat = acceptUnverifiedBackup
            options.unlock = try backupKey.unlock()
            options.encryption = try key.encryption()
            options.replacingExisting = replace
            options.acceptingUnreadableTexts = acceptUnreadableTexts
            let report: LedgerBackup.RestoreReport
            do {
                report = try await LedgerBackup.decode(data).restore(into: FilePath(path), options: options)
            } catch {
                throw CLIError.interchange(error, at: file)
            }
            if let settled = report.settledSwap, settled.didRecover { Terminal.error("tally: note: \(path): \(settled)") }
            var results = ResultLines()
            results.line("restored \(file) into \(path)\(options.encryption == nil ? "" : " (encrypted at rest with the given key)")")
            if let kept = report.replacedLedgerKeptAt {
                results.line("the replaced ledger is kept at \(kept.string); delete it once the restored ledger is what you expect (it holds personal keys)")
            }
            if !report.keysTakenFromReplacedLedger.isEmpty {
                results.line("personal keys of \(report.keysTakenFromReplacedLedger.count) people taken from the replaced ledger (the backup holds none)")
            }
            if !report.unreadablePeople.isEmpty {
                results.line("names and notes of \(report.unreadablePeople.count) people are unreadable (no key): \(report.unreadablePeople.map(\.description).joined(separator: ", "))")
            }
            if !report.keptForgotten.isEmpty {
                results.line("\(report.keptForgotten.count) people forgotten in the replaced ledger stay forgotten")
            }
            if report.keysWereInClear {
                Terminal.error("warning: \(file) holds the personal keys in clear (backup format \(LedgerBackup.currentFormatVersion - 1) or older): delete it and make a new backup (tally export --format json --passphrase-file FILE)")
            }
            try results.requireDelivered(outcome: "\(file) was restored into \(path)")
            return
        }
        if kind == .person {
            try await importPerson(data, into: path)
            return
        }
        let encryption = try key.encryption()
        let history = try LedgerAccess.history(at: path, encryption: encryption)
        var importer = CSVImporter(walletName: wallet, recordedAt: try Identifiers.timestamp(recordedAt))
        importer.target = kind == .balances ? .balancePoints : .transactions
        do {
            if let mapping, mapping.contains("=") {
                importer.mapping = try CSVImporter.Mapping(parsing: mapping)
            } else if let mapping {
                guard let saved = history.importMappings.first(where: { $0.name.lowercased() == mapping.lowercased() }) else {
                    let names = history.importMappings.map(\.name)
                    throw CLIError("--mapping \(mapping): no saved mapping has that name (\(names.isEmpty ? "none is saved; see `tally import-mapping save`" : "saved: " + names.joined(separator: ", "))); an inline mapping is field=column,...")
                }
                try importer.use(saved)
            }
        } catch let error as InterchangeError { throw CLIError("--mapping: \(error.message)") }
        if let categoryMap { importer.categoryMapping.merge(try Self.categoryMapping(categoryMap)) { _, inline in inline } }
        if let duplicates {
            guard let policy = CSVImporter.DuplicatePolicy(rawValue: duplicates) else { throw CLIError("--duplicates \(duplicates): use skip, replace or keep-both") }
            importer.duplicates = policy
        }
        if let unknownCategories {
            guard let policy = CSVImporter.UnknownCategoryPolicy(rawValue: unknownCategories) else {
                throw CLIError("--unknown-categories \(unknownCategories): use fail or create")
            }
            importer.unknownCategories = policy
        }
        importer.source = source
        if let dateFormat {
            let formats = ["iso": CSVDateFormat.iso, "dmy": .dayMonthYear, "mdy": .monthDayYear]
            guard let format = formats[dateFormat] else { throw CLIError("--date-format \(dateFormat): use iso, dmy or mdy") }
            importer.dateFormat = format
        }
        importer.defaultCategory = defaultCategory
        let plan: CSVImporter.Plan
        do { plan = try importer.plan(bytes: Array(data), state: history.state) } catch {
            throw CLIError.interchange(error, at: file)
        }
        // One batch for the whole file: all rows or none (G6), however many; a failed row
        // refuses the whole file (Plan.batch()), and only the failed rows are printed.
        let commands: [Command]
        do { commands = skipInvalid ? plan.commands : try plan.batch() } catch {
            var failedRows = ResultLines()
            for row in plan.rows where row.status == .failed { failedRows.line(Self.json(row, categories: history.state.categories)) }
            try failedRows.requireDelivered(outcome: "nothing was imported")
            Terminal.error("\(file): \(error.description) \(Self.summary(plan, dryRun: dryRun))")
            throw ExitCode(1)
        }
        if !dryRun && !commands.isEmpty {
            let ledger = try await LedgerAccess.open(at: path, create: false, encryption: encryption, chainKey: try key.chainKey(), batchLimit: commands.count)
            do {
                try await ledger.execute(commands)
            } catch {
                try? await ledger.close()
                throw CLIError("\(file): nothing imported: \(error.description)")
            }
            try await LedgerAccess.close(ledger, at: path)
        }
        var results = ResultLines()
        for row in plan.rows { results.line(Self.json(row, categories: history.state.categories)) }
        for category in plan.newCategories {
            Terminal.error("\(file): line \(category.line): new \(category.group) category \"\(category.name)\" (\(category.categoryID))\(dryRun ? " would be" : "") created; review it (rename, or delete it with a reassignment)")
        }
        Terminal.error("\(file): \(plan.inserted) inserted, \(plan.replaced) replaced, \(plan.skipped) skipped, \(plan.failed) failed \(Self.summary(plan, dryRun: dryRun))")
        try results.requireDelivered(outcome: dryRun ? "nothing was imported (--dry-run)" : "\(plan.inserted) rows were imported and \(plan.replaced) replaced into \(path); see `tally log --ledger \(path)`")
        if plan.failed > 0 { throw ExitCode(1) }  // --skip-invalid: the valid rows are in, the failed ones printed
    }

    /// `FROM=TO,FROM=TO` (file category name to ledger category name).
    static func categoryMapping(_ text: String) throws -> [String: String] {
        var mapping: [String: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw CLIError("--category-map: \"\(pair)\" is not FILE-NAME=CATEGORY")
            }
            guard mapping[parts[0].lowercased()] == nil || mapping[parts[0].lowercased()] == parts[1] else {
                throw CLIError("--category-map: \"\(parts[0])\" is mapped twice")
            }
            mapping[parts[0].lowercased()] = parts[1]
        }
        return mapping
    }

    /// `import backup --merge [--dry-run]`: the plan per kind, each entity that differs or is
    /// refused, then the merge (LedgerBackup.merge).
    private func mergeBackup(_ data: Data, into path: String) async throws {
        guard !replace else { throw CLIError("--merge and --replace: choose one (merge adds to the ledger, replace restores over it)") }
        var options = LedgerBackup.MergeOptions(recordedAt: try Identifiers.timestamp(recordedAt))
        options.acceptingUnverifiedFormat = acceptUnverifiedBackup
        options.unlock = try backupKey.unlock()
        options.acceptingUnreadableTexts = acceptUnreadableTexts
        options.skippingRefused = skipRefused
        let backup: LedgerBackup
        do { backup = try LedgerBackup.decode(data) } catch { throw CLIError.interchange(error, at: file) }
        // Each command of a merge stands for at least one record of the backup (the event
        // that made what it carries), so their count bounds the batch.
        let ledger = try await LedgerAccess.open(
            at: path, create: false, encryption: try key.encryption(), chainKey: try key.chainKey(),
            batchLimit: backup.batches.reduce(0) { $0 + $1.records.count })
        let plan: LedgerBackup.MergePlan
        do {
            if dryRun {
                plan = try await backup.mergePlan(into: ledger, options: options)
            } else {
                plan = try await backup.merge(into: ledger, options: options)
            }
        } catch {
            try? await ledger.close()
            throw CLIError.interchange(error, at: file)
        }
        try await LedgerAccess.close(ledger, at: path)
        var results = ResultLines()
        typealias Plan = LedgerBackup.MergePlan
        for kind in LedgerBackup.MergeEntity.Kind.allCases {
            let refused = plan.refused.count { $0.entity.kind == kind }
            results.line("\(kind.rawValue): \(Plan.count(kind, in: plan.new)) new, \(Plan.count(kind, in: plan.kept)) kept, \(Plan.count(kind, in: plan.differs)) differs (kept current), \(refused) refused")
        }
        for entity in plan.differs { results.line("differs, kept current: \(entity)") }
        for refusal in plan.refused { results.line("refused: \(refusal.entity): \(refusal.rule) \(refusal.code): \(refusal.message)") }
        let added = dryRun ? "would add" : "added"
        try results.requireDelivered(outcome: dryRun
            ? "nothing was merged (--dry-run)"
            : "\(plan.new.count) entities were merged into \(path); see `tally log --ledger \(path)`")
        Terminal.error("\(file): \(added) \(plan.new.count) entities (\(plan.commands.count) commands), kept \(plan.kept.count), \(plan.differs.count) differ (kept current), \(plan.refused.count) refused\(!dryRun && !plan.refused.isEmpty ? " (left out, --skip-refused)" : "")")
        if !plan.refused.isEmpty { throw ExitCode(1) }  // a refused entity is not in the ledger
    }

    /// `import person`: a new ledger from a person's data (PersonalDataImport).
    private func importPerson(_ data: Data, into path: String) async throws {
        let household = try Identifiers.parse(householdID, option: "--household-id") as HouseholdID
        let report: PersonalDataImport.Report
        do {
            let export = try PersonalDataImport.decode(data)
            report = try await PersonalDataImport.importing(
                export, into: FilePath(path), householdID: household, householdName: householdName, adminName: adminName,
                recordedAt: try Identifiers.timestamp(recordedAt), encryption: try key.encryption())
        } catch let error as InterchangeError {
            throw CLIError.interchange(error, at: file)
        }
        var results = ResultLines()
        results.line("imported \(file) into a new ledger at \(path) (household \(household)): \(report.wallets.count) wallets, \(report.transactions) transactions, \(report.transfers) transfers")
        if report.transactionsLeft > 0 {
            results.line("\(report.transactionsLeft) transactions in wallets you do not own (the household's shared wallets, other members' wallets) stay with the household")
        }
        for debt in report.openDebts {
            let owes = debt.owes.minorUnits > 0 ? "you owe \(debt.other)" : "\(debt.other) owes you"
            results.line("warning: unsettled debt not carried (\(owes) \(debt.owes.minorUnits.magnitude) minor units \(debt.owes.currency)); settle it in the household you left")
        }
        try results.requireDelivered(outcome: "\(file) was imported into \(path)")
    }

    /// `{line,status,reason[,column][,suggestion]}`; the suggestion (Flow US-072) names its
    /// category among `categories` (a category the plan creates has no name there yet).
    private static func json(_ row: CSVImporter.RowResult, categories: [CategoryID: CategoryRecord]) -> String {
        var members: [(key: String, value: CanonicalJSON)] = [
            ("line", .integer(Int64(row.line))), ("status", .string(row.status.rawValue)), ("reason", CanonicalJSON(row.reason)),
        ]
        if let column = row.column { members.append(("column", .string(column))) }
        if let suggestion = row.suggestion { members.append(("suggestion", SuggestCategoryCommand.json(suggestion, categories: categories))) }
        return CanonicalJSON.text(orderedMembers: members)
    }

    /// `(delimiter ;, dates dmy)` and the dry-run mark.
    private static func summary(_ plan: CSVImporter.Plan, dryRun: Bool) -> String {
        let delimiter = plan.delimiter == "\t" ? "tab" : String(plan.delimiter)
        let detected = plan.detectedColumns.map { "\($0.field)=\($0.column)" }
        let columns = detected.isEmpty ? "" : ", columns found by content: \(detected.joined(separator: ","))"
        return "(delimiter \(delimiter), dates \(plan.dateFormat.rawValue)\(columns))\(dryRun ? " [dry run]" : "")"
    }
}
