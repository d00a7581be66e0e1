import ArgumentParser
import Foundation
import Tally
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally import-mapping save|list|remove`: CSV import mappings saved in the ledger (events
/// `ImportMappingSaved`/`ImportMappingRemoved`, so they sync with it), used by
/// `tally import csv --mapping NAME` (Docs/Interchange.md, "Saved mappings").
struct ImportMappingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-mapping", abstract: "Save, list or remove named CSV import mappings (kept in the ledger).",
        subcommands: [Save.self, List.self, Remove.self])

    /// The options every writing subcommand shares.
    struct Writing: ParsableArguments {
        @OptionGroup var location: LedgerOption
        @OptionGroup var key: KeyOptions
        @Option(help: ArgumentHelp("The acting member (UUID); default: the household's admin.", valueName: "ID")) var actor: String?
        @Option(name: .customLong("recorded-at"), help: "When the command is recorded (UTC ISO 8601); default now.") var recordedAt: String?

        /// Executes `action` as one command; a rejection prints the rule and exits 1.
        func execute(_ action: (LedgerHistory) throws -> CommandAction) async throws -> (LedgerHistory, CommandID) {
            let path = try location.path()
            let encryption = try key.encryption()
            let history = try LedgerAccess.history(at: path, encryption: encryption)
            let actorID: PersonID
            if let actor {
                actorID = try Identifiers.parse(actor, option: "--actor")
            } else {
                guard let admin = history.state.household?.admin else { throw CLIError("\(path): the ledger has no household yet") }
                actorID = admin
            }
            let command = Command(
                commandID: try Identifiers.parse(nil, option: "") as CommandID, actor: actorID,
                recordedAt: try Identifiers.timestamp(recordedAt), action: try action(history))
            let ledger = try await LedgerAccess.open(at: path, create: false, encryption: encryption, chainKey: try key.chainKey())
            do {
                try await ledger.execute(command)
            } catch {
                try? await ledger.close()
                if case .rejected = error {
                    Terminal.error("\(path): \(error.description)")
                    throw ExitCode(1)
                }
                throw CLIError.ledger(error, at: path)
            }
            try await LedgerAccess.close(ledger, at: path)
            return (history, command.commandID)
        }
    }

    struct Save: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a mapping under a name (saving a name again replaces it).",
            discussion: "Example: tally import-mapping save UBS --columns 'date=Datum,amount=Betrag,payee=Empfänger,external_id=Referenz' --category-map 'Lebensmittel=Groceries' --ledger DIR")

        @Argument(help: "The mapping's name (case-insensitive).") var name: String
        @Option(help: ArgumentHelp("Columns: \(CSVImporter.Mapping.fields.map { "\($0)=COL" }.joined(separator: ",")) (any of them).", valueName: "MAP")) var columns: String = ""
        @Option(name: .customLong("category-map"), help: ArgumentHelp("The file's category names to the ledger's categories (name or id): Food=Groceries,Essen=Groceries.", valueName: "MAP")) var categoryMap: String?
        @OptionGroup var writing: Writing

        func run() async throws {
            let (_, id) = try await writing.execute { history in
                var columnPairs: [ImportColumnMapping] = []
                for pair in columns.split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2 else { throw CLIError("--columns: \"\(pair)\" is not field=column") }
                    columnPairs.append(ImportColumnMapping(field: parts[0] == "wallet" ? "account" : parts[0], column: parts[1]))
                }
                var categoryPairs: [ImportCategoryMapping] = []
                let pairs: [String: String] = try categoryMap.map(ImportCommand.categoryMapping) ?? [:]
                for (fileName, target) in pairs.sorted(by: { $0.key < $1.key }) {
                    let categoryID: CategoryID
                    do throws(InterchangeError) { categoryID = try CSVImporter.category(named: target, in: history) } catch {
                        throw CLIError("--category-map \(fileName)=\(target): \(error.message)")
                    }
                    categoryPairs.append(ImportCategoryMapping(name: fileName, categoryID: categoryID))
                }
                return .saveImportMapping(name: name, columns: columnPairs, categories: categoryPairs)
            }
            var results = ResultLines()
            results.line(CanonicalJSON.text(orderedMembers: [("status", .string("saved")), ("name", .string(name)), ("commandID", .string(id.description))]))
            try results.requireDelivered(outcome: "the mapping \(name) was saved")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a saved mapping.")

        @Argument(help: "The mapping's name (case-insensitive).") var name: String
        @OptionGroup var writing: Writing

        func run() async throws {
            let (_, id) = try await writing.execute { _ in .removeImportMapping(name: name) }
            var results = ResultLines()
            results.line(CanonicalJSON.text(orderedMembers: [("status", .string("removed")), ("name", .string(name)), ("commandID", .string(id.description))]))
            try results.requireDelivered(outcome: "the mapping \(name) was removed")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the saved mappings, one JSON line each, by name.")

        @OptionGroup var location: LedgerLocation
        @OptionGroup var key: KeyOptions

        func run() async throws {
            let path = try location.path()
            let history = try LedgerAccess.history(at: path, encryption: try key.encryption())
            var results = ResultLines()
            for mapping in history.importMappings {
                results.line(CanonicalJSON.text(orderedMembers: [
                    ("name", .string(mapping.name)),
                    ("columns", .object(Dictionary(mapping.columns.map { ($0.field, CanonicalJSON.string($0.column)) }, uniquingKeysWith: { first, _ in first }))),
                    ("categories", .object(Dictionary(
                        mapping.categories.map { ($0.name, CanonicalJSON.string(history.categoryName($0.categoryID))) }, uniquingKeysWith: { first, _ in first }))),
                ]))
            }
            try results.requireDelivered(outcome: "")
        }
    }
}
