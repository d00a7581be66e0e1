import ArgumentParser
import Tally
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally suggest-category PAYEE`: the category suggested for a payee (Flow US-072,
/// Docs/Interchange.md "Category suggestions"), learned from the transactions the reader sees.
struct SuggestCategoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest-category", abstract: "The category suggested for a payee, learned from past transactions and corrections (Flow US-072).",
        discussion: "The category of the payee's most recently recorded or edited transaction the reader sees (a correction wins), with how many of the payee's transactions agree. Exit status 1 when the reader has no transaction of that payee.")

    @Argument(help: "The payee (a transaction's payee; for one without, the text before \": \" of its note).") var payee: String
    @Option(help: "income or expense (default expense): the group of the suggested category.") var kind: String = "expense"
    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var viewer: ViewerOption
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let path = try location.path()
        guard let kind = TransactionKind.allCases.first(where: { String(describing: $0) == self.kind.lowercased() }) else {
            throw CLIError("--kind \(self.kind): use income or expense")
        }
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption())
        let reader = try viewer.viewer(in: history)
        let suggestions = CategorySuggestions(state: history.state, visibleTo: reader)
        guard let suggestion = suggestions.suggestion(forPayee: payee, group: kind == .income ? .income : .expense) else {
            Terminal.error("tally: no \(kind) of the payee \"\(PayeeKey(payee: payee)?.value ?? "")\" to learn from")
            throw ExitCode(1)
        }
        let categories = history.state.categories
        if json {
            try Terminal.line(Self.json(suggestion, categories: categories).text)
        } else {
            let name = categories[suggestion.categoryID]?.name ?? suggestion.categoryID.description
            try Terminal.line("\(suggestion.payee) -> \(name) (\(suggestion.confidence.rawValue) confidence: \(suggestion.matching) of \(suggestion.total) transactions)")
        }
    }

    /// `{payee,categoryID,category,confidence,matching,total}`.
    static func json(_ suggestion: CategorySuggestion, categories: [CategoryID: CategoryRecord]) -> CanonicalJSON {
        .object([
            "payee": .string(suggestion.payee), "categoryID": CanonicalJSON(suggestion.categoryID),
            "category": CanonicalJSON(categories[suggestion.categoryID]?.name), "confidence": .string(suggestion.confidence.rawValue),
            "matching": .integer(Int64(suggestion.matching)), "total": .integer(Int64(suggestion.total)),
        ])
    }
}
